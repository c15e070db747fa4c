ALTER TABLE "agents" ADD COLUMN "config" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "turns" ADD COLUMN "nudges" integer DEFAULT 0 NOT NULL;