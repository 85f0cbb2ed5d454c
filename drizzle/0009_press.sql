CREATE TABLE "disputes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "disputes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"game_id" text NOT NULL,
	"turn" integer NOT NULL,
	"edict_version" integer NOT NULL,
	"player_id" bigint NOT NULL,
	"faction" text NOT NULL,
	"inbound_id" bigint,
	"block" integer DEFAULT 0 NOT NULL,
	"reason" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"settled_at" timestamp with time zone,
	"settled_by" text,
	"settlement_reason" text,
	"amended_version" integer,
	CONSTRAINT "disputes_inbound_block" UNIQUE("inbound_id","block"),
	CONSTRAINT "disputes_status" CHECK ("disputes"."status" in ('open', 'rejected', 'amended', 'lapsed')),
	CONSTRAINT "disputes_settled" CHECK (("disputes"."status" = 'open') = ("disputes"."settled_at" is null)),
	CONSTRAINT "disputes_rejected_reason" CHECK ("disputes"."status" <> 'rejected' or "disputes"."settlement_reason" is not null),
	CONSTRAINT "disputes_amended_version" CHECK (("disputes"."status" = 'amended') = ("disputes"."amended_version" is not null))
);
--> statement-breakpoint
CREATE TABLE "mutes" (
	"player_id" bigint NOT NULL,
	"muted" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mutes_pk" PRIMARY KEY("player_id","muted")
);
--> statement-breakpoint
CREATE TABLE "press_messages" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "press_messages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"game_id" text NOT NULL,
	"thread_id" bigint,
	"turn" integer NOT NULL,
	"writer_player_id" bigint,
	"writer_referee_id" bigint,
	"writer_faction" text,
	"sign" text NOT NULL,
	"audience_kind" text NOT NULL,
	"audience_factions" text[] DEFAULT '{}'::text[] NOT NULL,
	"text" text NOT NULL,
	"chars" integer NOT NULL,
	"inbound_id" bigint,
	"block" integer DEFAULT 0 NOT NULL,
	"in_reply_to_message_id" bigint,
	"status" text NOT NULL,
	"refusal" jsonb,
	"received_at" timestamp with time zone NOT NULL,
	"visible_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "press_messages_inbound_block" UNIQUE("inbound_id","block"),
	CONSTRAINT "press_messages_sign" CHECK ("press_messages"."sign" in ('signed', 'anonymous')),
	CONSTRAINT "press_messages_audience" CHECK ("press_messages"."audience_kind" in ('factions', 'all', 'referee')),
	CONSTRAINT "press_messages_status" CHECK ("press_messages"."status" in ('relayed', 'refused')),
	CONSTRAINT "press_messages_writer" CHECK (("press_messages"."writer_player_id" is null) <> ("press_messages"."writer_referee_id" is null)),
	CONSTRAINT "press_messages_faction" CHECK ("press_messages"."writer_player_id" is null or "press_messages"."writer_faction" is not null),
	CONSTRAINT "press_messages_refusal" CHECK (("press_messages"."status" = 'refused') = ("press_messages"."refusal" is not null)),
	CONSTRAINT "press_messages_relayed_thread" CHECK ("press_messages"."status" = 'refused' or "press_messages"."thread_id" is not null),
	CONSTRAINT "press_messages_block" CHECK ("press_messages"."block" >= 0 and "press_messages"."chars" >= 0)
);
--> statement-breakpoint
CREATE TABLE "press_preferences" (
	"player_id" bigint PRIMARY KEY NOT NULL,
	"delivery" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "press_preferences_delivery" CHECK ("press_preferences"."delivery" in ('immediate', 'digest'))
);
--> statement-breakpoint
CREATE TABLE "press_recipients" (
	"message_id" bigint NOT NULL,
	"recipient_kind" text NOT NULL,
	"recipient_id" bigint NOT NULL,
	"address" text NOT NULL,
	"delivery" text NOT NULL,
	"outbox_id" bigint,
	"digested_at" timestamp with time zone,
	CONSTRAINT "press_recipients_pk" PRIMARY KEY("message_id","recipient_kind","recipient_id"),
	CONSTRAINT "press_recipients_kind" CHECK ("press_recipients"."recipient_kind" in ('player', 'referee', 'observer')),
	CONSTRAINT "press_recipients_delivery" CHECK ("press_recipients"."delivery" in ('immediate', 'digest', 'muted'))
);
--> statement-breakpoint
CREATE TABLE "press_reports" (
	"message_id" bigint NOT NULL,
	"player_id" bigint NOT NULL,
	"reason" text NOT NULL,
	"inbound_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "press_reports_pk" PRIMARY KEY("message_id","player_id")
);
--> statement-breakpoint
CREATE TABLE "press_threads" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "press_threads_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"game_id" text NOT NULL,
	"kind" text NOT NULL,
	"participants" text[] NOT NULL,
	"anonymous" boolean DEFAULT false NOT NULL,
	"hidden_writer_player_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "press_threads_kind" CHECK ("press_threads"."kind" in ('factions', 'all', 'referee')),
	CONSTRAINT "press_threads_hidden" CHECK ("press_threads"."anonymous" = ("press_threads"."hidden_writer_player_id" is not null)),
	CONSTRAINT "press_threads_referee_signed" CHECK (not ("press_threads"."anonymous" and "press_threads"."kind" = 'referee'))
);
--> statement-breakpoint
CREATE TABLE "press_tokens" (
	"token" text PRIMARY KEY NOT NULL,
	"thread_id" bigint NOT NULL,
	"owner_kind" text NOT NULL,
	"owner_id" bigint NOT NULL,
	"root_message_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "press_tokens_lower" CHECK ("press_tokens"."token" = lower("press_tokens"."token")),
	CONSTRAINT "press_tokens_owner_kind" CHECK ("press_tokens"."owner_kind" in ('player', 'referee'))
);
--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "press_settings" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_player_id_players_id_fk" FOREIGN KEY ("player_id") REFERENCES "public"."players"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_inbound_id_inbound_messages_id_fk" FOREIGN KEY ("inbound_id") REFERENCES "public"."inbound_messages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_edict_fk" FOREIGN KEY ("game_id","turn","edict_version") REFERENCES "public"."edicts"("game_id","turn","version") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_amended_fk" FOREIGN KEY ("game_id","turn","amended_version") REFERENCES "public"."edicts"("game_id","turn","version") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mutes" ADD CONSTRAINT "mutes_player_id_players_id_fk" FOREIGN KEY ("player_id") REFERENCES "public"."players"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "press_messages" ADD CONSTRAINT "press_messages_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "press_messages" ADD CONSTRAINT "press_messages_thread_id_press_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."press_threads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "press_messages" ADD CONSTRAINT "press_messages_writer_player_id_players_id_fk" FOREIGN KEY ("writer_player_id") REFERENCES "public"."players"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "press_messages" ADD CONSTRAINT "press_messages_writer_referee_id_referees_id_fk" FOREIGN KEY ("writer_referee_id") REFERENCES "public"."referees"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "press_messages" ADD CONSTRAINT "press_messages_inbound_id_inbound_messages_id_fk" FOREIGN KEY ("inbound_id") REFERENCES "public"."inbound_messages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "press_messages" ADD CONSTRAINT "press_messages_reply_fk" FOREIGN KEY ("in_reply_to_message_id") REFERENCES "public"."press_messages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "press_preferences" ADD CONSTRAINT "press_preferences_player_id_players_id_fk" FOREIGN KEY ("player_id") REFERENCES "public"."players"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "press_recipients" ADD CONSTRAINT "press_recipients_message_id_press_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."press_messages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "press_recipients" ADD CONSTRAINT "press_recipients_outbox_id_outbox_id_fk" FOREIGN KEY ("outbox_id") REFERENCES "public"."outbox"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "press_reports" ADD CONSTRAINT "press_reports_message_id_press_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."press_messages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "press_reports" ADD CONSTRAINT "press_reports_player_id_players_id_fk" FOREIGN KEY ("player_id") REFERENCES "public"."players"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "press_reports" ADD CONSTRAINT "press_reports_inbound_id_inbound_messages_id_fk" FOREIGN KEY ("inbound_id") REFERENCES "public"."inbound_messages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "press_threads" ADD CONSTRAINT "press_threads_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "press_threads" ADD CONSTRAINT "press_threads_hidden_writer_player_id_players_id_fk" FOREIGN KEY ("hidden_writer_player_id") REFERENCES "public"."players"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "press_tokens" ADD CONSTRAINT "press_tokens_thread_id_press_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."press_threads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "disputes_game_turn" ON "disputes" USING btree ("game_id","turn","status");--> statement-breakpoint
CREATE INDEX "press_messages_game" ON "press_messages" USING btree ("game_id","created_at");--> statement-breakpoint
CREATE INDEX "press_messages_thread" ON "press_messages" USING btree ("thread_id");--> statement-breakpoint
CREATE INDEX "press_messages_writer_recent" ON "press_messages" USING btree ("writer_player_id","received_at") WHERE "press_messages"."status" = 'relayed';--> statement-breakpoint
CREATE INDEX "press_recipients_digest" ON "press_recipients" USING btree ("recipient_kind","recipient_id") WHERE "press_recipients"."delivery" = 'digest' and "press_recipients"."digested_at" is null;--> statement-breakpoint
CREATE INDEX "press_recipients_outbox" ON "press_recipients" USING btree ("outbox_id");--> statement-breakpoint
CREATE UNIQUE INDEX "press_threads_signed" ON "press_threads" USING btree ("game_id","kind","participants") WHERE not "press_threads"."anonymous";--> statement-breakpoint
CREATE UNIQUE INDEX "press_tokens_owner" ON "press_tokens" USING btree ("thread_id","owner_kind","owner_id") WHERE "press_tokens"."revoked_at" is null;--> statement-breakpoint
CREATE INDEX "press_tokens_owner_all" ON "press_tokens" USING btree ("owner_kind","owner_id");