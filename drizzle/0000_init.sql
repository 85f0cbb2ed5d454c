CREATE TABLE "audit_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor" text NOT NULL,
	"game_id" text,
	"action" text NOT NULL,
	"detail" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "edicts" (
	"game_id" text NOT NULL,
	"turn" integer NOT NULL,
	"version" integer NOT NULL,
	"json" jsonb NOT NULL,
	"text_it" text NOT NULL,
	"text_en" text NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text NOT NULL,
	CONSTRAINT "edicts_pk" PRIMARY KEY("game_id","turn","version")
);
--> statement-breakpoint
CREATE TABLE "games" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"map" text NOT NULL,
	"time_zone" text NOT NULL,
	"weekly_deadline" text NOT NULL,
	"declaration_lead_minutes" integer NOT NULL,
	"reminder_minutes" integer[] NOT NULL,
	"dispute_window_minutes" integer NOT NULL,
	"victory_planets" integer NOT NULL,
	"nmr_hostility" text NOT NULL,
	"status" text NOT NULL,
	"current_turn" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "games_id_slug" CHECK ("games"."id" ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
	CONSTRAINT "games_weekly_deadline" CHECK ("games"."weekly_deadline" ~ '^(mon|tue|wed|thu|fri|sat|sun) ([01][0-9]|2[0-3]):[0-5][0-9]$'),
	CONSTRAINT "games_nmr_hostility" CHECK ("games"."nmr_hostility" in ('keep', 'none')),
	CONSTRAINT "games_status" CHECK ("games"."status" in ('active', 'paused', 'finished')),
	CONSTRAINT "games_minutes" CHECK ("games"."declaration_lead_minutes" >= 0 and "games"."dispute_window_minutes" >= 0),
	CONSTRAINT "games_victory" CHECK ("games"."victory_planets" > 0)
);
--> statement-breakpoint
CREATE TABLE "inbound_messages" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "inbound_messages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"source" text NOT NULL,
	"source_key" text NOT NULL,
	"message_id" text,
	"content_sha256" text NOT NULL,
	"raw" "bytea" NOT NULL,
	"size" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"outcome" text,
	"outcome_detail" jsonb,
	"game_id" text,
	"player_id" bigint,
	"processed_at" timestamp with time zone,
	CONSTRAINT "inbound_source_key" UNIQUE("source_key"),
	CONSTRAINT "inbound_message_content" UNIQUE("message_id","content_sha256"),
	CONSTRAINT "inbound_source" CHECK ("inbound_messages"."source" in ('imap', 'maildir', 'cli')),
	CONSTRAINT "inbound_status" CHECK ("inbound_messages"."status" in ('pending', 'processed', 'ignored', 'rejected'))
);
--> statement-breakpoint
CREATE TABLE "mailbox_cursors" (
	"mailbox" text PRIMARY KEY NOT NULL,
	"uid_validity" text NOT NULL,
	"last_uid" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outbox" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "outbox_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"kind" text NOT NULL,
	"game_id" text,
	"to_address" text NOT NULL,
	"reply_to" text,
	"subject" text NOT NULL,
	"in_reply_to" text,
	"references" text,
	"message_id" text NOT NULL,
	"body_text" text NOT NULL,
	"body_html" text,
	"dedupe_key" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"last_error" text,
	CONSTRAINT "outbox_dedupe_key" UNIQUE("dedupe_key"),
	CONSTRAINT "outbox_message_id" UNIQUE("message_id"),
	CONSTRAINT "outbox_status" CHECK ("outbox"."status" in ('pending', 'sent', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "players" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "players_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"game_id" text NOT NULL,
	"faction" text NOT NULL,
	"email" text NOT NULL,
	"display_name" text,
	"lang" text NOT NULL,
	"time_zone" text,
	"secret" text NOT NULL,
	"joined_turn" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "players_game_faction" UNIQUE("game_id","faction"),
	CONSTRAINT "players_game_email" UNIQUE("game_id","email"),
	CONSTRAINT "players_lang" CHECK ("players"."lang" in ('it', 'en')),
	CONSTRAINT "players_email_lower" CHECK ("players"."email" = lower("players"."email"))
);
--> statement-breakpoint
CREATE TABLE "sheets" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sheets_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"game_id" text NOT NULL,
	"turn" integer NOT NULL,
	"faction" text NOT NULL,
	"version" integer NOT NULL,
	"text" text NOT NULL,
	"parsed" jsonb NOT NULL,
	"status" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"inbound_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sheets_version" UNIQUE("game_id","turn","faction","version"),
	CONSTRAINT "sheets_status" CHECK ("sheets"."status" in ('valid', 'problems'))
);
--> statement-breakpoint
CREATE TABLE "turns" (
	"game_id" text NOT NULL,
	"number" integer NOT NULL,
	"election" boolean NOT NULL,
	"state" jsonb NOT NULL,
	"deadline" timestamp with time zone NOT NULL,
	"declaration_deadline" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"adjudicated_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "turns_pk" PRIMARY KEY("game_id","number"),
	CONSTRAINT "turns_status" CHECK ("turns"."status" in ('open', 'adjudicated')),
	CONSTRAINT "turns_number" CHECK ("turns"."number" >= 1)
);
--> statement-breakpoint
ALTER TABLE "edicts" ADD CONSTRAINT "edicts_turn_fk" FOREIGN KEY ("game_id","turn") REFERENCES "public"."turns"("game_id","number") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_player_id_players_id_fk" FOREIGN KEY ("player_id") REFERENCES "public"."players"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox" ADD CONSTRAINT "outbox_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "players" ADD CONSTRAINT "players_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sheets" ADD CONSTRAINT "sheets_inbound_id_inbound_messages_id_fk" FOREIGN KEY ("inbound_id") REFERENCES "public"."inbound_messages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sheets" ADD CONSTRAINT "sheets_turn_fk" FOREIGN KEY ("game_id","turn") REFERENCES "public"."turns"("game_id","number") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "turns" ADD CONSTRAINT "turns_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_game" ON "audit_log" USING btree ("game_id","at");--> statement-breakpoint
CREATE INDEX "inbound_pending" ON "inbound_messages" USING btree ("received_at") WHERE "inbound_messages"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "inbound_game" ON "inbound_messages" USING btree ("game_id","received_at");--> statement-breakpoint
CREATE INDEX "outbox_due" ON "outbox" USING btree ("next_attempt_at","id") WHERE "outbox"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "outbox_game" ON "outbox" USING btree ("game_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "players_secret_lower" ON "players" USING btree (lower("secret"));--> statement-breakpoint
CREATE INDEX "players_email" ON "players" USING btree ("email");--> statement-breakpoint
CREATE INDEX "sheets_inbound" ON "sheets" USING btree ("inbound_id");--> statement-breakpoint
CREATE INDEX "turns_open_deadline" ON "turns" USING btree ("deadline") WHERE "turns"."status" = 'open';