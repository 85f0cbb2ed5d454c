CREATE TABLE "mail_assets" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "mail_assets_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"sha256" text NOT NULL,
	"content_type" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mail_assets_sha256" UNIQUE("sha256")
);
--> statement-breakpoint
ALTER TABLE "edicts" ADD COLUMN "engine_version" text;--> statement-breakpoint
ALTER TABLE "edicts" ADD COLUMN "sheet_ids" jsonb;--> statement-breakpoint
ALTER TABLE "edicts" ADD COLUMN "state_after" jsonb;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "attachments" jsonb;