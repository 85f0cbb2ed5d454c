CREATE TABLE "player_addresses" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "player_addresses_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"game_id" text NOT NULL,
	"player_id" bigint NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "player_addresses_game_email" UNIQUE("game_id","email"),
	CONSTRAINT "player_addresses_email_lower" CHECK ("player_addresses"."email" = lower("player_addresses"."email"))
);
--> statement-breakpoint
ALTER TABLE "players" DROP CONSTRAINT "players_game_email";--> statement-breakpoint
ALTER TABLE "players" ADD COLUMN "removed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "player_addresses" ADD CONSTRAINT "player_addresses_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "player_addresses" ADD CONSTRAINT "player_addresses_player_id_players_id_fk" FOREIGN KEY ("player_id") REFERENCES "public"."players"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "player_addresses_email" ON "player_addresses" USING btree ("email");--> statement-breakpoint
CREATE INDEX "player_addresses_player" ON "player_addresses" USING btree ("player_id");--> statement-breakpoint
-- Written by hand after generation: every existing player's address becomes its first (and primary) one.
INSERT INTO "player_addresses" ("game_id", "player_id", "email") SELECT "game_id", "id", "email" FROM "players";
