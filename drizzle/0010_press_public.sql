ALTER TABLE "press_messages" ADD COLUMN "public" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Messages to everyone already shown (their game publishes them now) stay shown; from here on each is fixed at relay time.
UPDATE "press_messages" m SET "public" = true FROM "games" g WHERE g."id" = m."game_id" AND m."audience_kind" = 'all' AND m."status" = 'relayed' AND g."press_settings"->>'observers' = 'broadcasts';
