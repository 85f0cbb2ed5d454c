DROP INDEX "outbox_recipient_recent";--> statement-breakpoint
CREATE INDEX "outbox_recipient_recent" ON "outbox" USING btree ("to_address","kind","created_at");