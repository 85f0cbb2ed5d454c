CREATE TABLE "absences" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "absences_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"game_id" text NOT NULL,
	"player_id" bigint NOT NULL,
	"from_day" text NOT NULL,
	"to_day" text NOT NULL,
	"inbound_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "absences_days" CHECK ("absences"."from_day" <= "absences"."to_day")
);
--> statement-breakpoint
CREATE TABLE "game_referees" (
	"game_id" text NOT NULL,
	"referee_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "game_referees_pk" PRIMARY KEY("game_id","referee_id")
);
--> statement-breakpoint
CREATE TABLE "observers" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "observers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"game_id" text NOT NULL,
	"email" text NOT NULL,
	"lang" text NOT NULL,
	"token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"unsubscribed_at" timestamp with time zone,
	CONSTRAINT "observers_game_email" UNIQUE("game_id","email"),
	CONSTRAINT "observers_token" UNIQUE("token"),
	CONSTRAINT "observers_email_lower" CHECK ("observers"."email" = lower("observers"."email"))
);
--> statement-breakpoint
CREATE TABLE "referee_sessions" (
	"token_sha256" text PRIMARY KEY NOT NULL,
	"referee_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "referees" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "referees_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"password_set_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "referees_email" UNIQUE("email"),
	CONSTRAINT "referees_email_lower" CHECK ("referees"."email" = lower("referees"."email")),
	CONSTRAINT "referees_hash_argon2" CHECK ("referees"."password_hash" like '$argon2%')
);
--> statement-breakpoint
CREATE TABLE "seat_history" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "seat_history_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"game_id" text NOT NULL,
	"faction" text NOT NULL,
	"email" text NOT NULL,
	"from_turn" integer NOT NULL,
	"to_turn" integer NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "early_processing_minutes" integer;--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "grace_minutes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "absence_days_per_player" integer DEFAULT 14 NOT NULL;--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "absence_days_per_game" integer DEFAULT 28 NOT NULL;--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "paused_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "headers" jsonb;--> statement-breakpoint
ALTER TABLE "turns" ADD COLUMN "early_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "absences" ADD CONSTRAINT "absences_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "absences" ADD CONSTRAINT "absences_player_id_players_id_fk" FOREIGN KEY ("player_id") REFERENCES "public"."players"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "absences" ADD CONSTRAINT "absences_inbound_id_inbound_messages_id_fk" FOREIGN KEY ("inbound_id") REFERENCES "public"."inbound_messages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "game_referees" ADD CONSTRAINT "game_referees_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "game_referees" ADD CONSTRAINT "game_referees_referee_id_referees_id_fk" FOREIGN KEY ("referee_id") REFERENCES "public"."referees"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "observers" ADD CONSTRAINT "observers_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referee_sessions" ADD CONSTRAINT "referee_sessions_referee_id_referees_id_fk" FOREIGN KEY ("referee_id") REFERENCES "public"."referees"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seat_history" ADD CONSTRAINT "seat_history_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "absences_game" ON "absences" USING btree ("game_id");--> statement-breakpoint
CREATE UNIQUE INDEX "absences_inbound" ON "absences" USING btree ("inbound_id");--> statement-breakpoint
CREATE INDEX "game_referees_referee" ON "game_referees" USING btree ("referee_id");--> statement-breakpoint
CREATE INDEX "referee_sessions_referee" ON "referee_sessions" USING btree ("referee_id");--> statement-breakpoint
CREATE INDEX "seat_history_game" ON "seat_history" USING btree ("game_id","faction");--> statement-breakpoint
CREATE INDEX "inbound_absence" ON "inbound_messages" USING btree ("id") WHERE "inbound_messages"."outcome" = 'absence';--> statement-breakpoint
ALTER TABLE "games" ADD CONSTRAINT "games_schedule" CHECK ("games"."grace_minutes" >= 0 and coalesce("games"."early_processing_minutes", 0) >= 0 and "games"."absence_days_per_player" >= 0 and "games"."absence_days_per_game" >= 0);