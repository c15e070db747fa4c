CREATE TABLE "hook_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"delivery_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"status_code" integer,
	"error" text,
	"duration_ms" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hook_deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"event" text NOT NULL,
	"url" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_status_code" integer,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "spawned_by" text;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "background" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "hook_attempts" ADD CONSTRAINT "hook_attempts_delivery_id_hook_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."hook_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hook_deliveries" ADD CONSTRAINT "hook_deliveries_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "hook_attempts_delivery_idx" ON "hook_attempts" USING btree ("delivery_id");--> statement-breakpoint
CREATE INDEX "hook_deliveries_due_idx" ON "hook_deliveries" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "hook_deliveries_session_idx" ON "hook_deliveries" USING btree ("session_id");--> statement-breakpoint
CREATE UNIQUE INDEX "agents_spawned_by_uq" ON "agents" USING btree ("spawned_by");