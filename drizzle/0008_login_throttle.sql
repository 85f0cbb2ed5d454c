CREATE TABLE "login_throttle" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer NOT NULL,
	"blocked_until" timestamp with time zone,
	"last_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "referees" ADD COLUMN "password_one_time" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "referees" ADD COLUMN "one_time_used_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "login_throttle_last_at" ON "login_throttle" USING btree ("last_at");