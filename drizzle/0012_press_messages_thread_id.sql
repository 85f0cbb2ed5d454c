DROP INDEX "press_messages_thread";--> statement-breakpoint
CREATE INDEX "press_messages_thread" ON "press_messages" USING btree ("thread_id","id");