ALTER TABLE "games" ADD COLUMN "last_turn" integer;--> statement-breakpoint
ALTER TABLE "games" ADD CONSTRAINT "games_last_turn" CHECK (coalesce("games"."last_turn", 1) > 0);