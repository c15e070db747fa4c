CREATE TYPE "public"."agent_status" AS ENUM('pending', 'running', 'idle', 'done', 'failed', 'cancelled');--> statement-breakpoint
CREATE TYPE "public"."inbox_kind" AS ENUM('prompt', 'followup', 'steer', 'context', 'child_result', 'resume');--> statement-breakpoint
CREATE TYPE "public"."inbox_state" AS ENUM('queued', 'admitted', 'cancelled');--> statement-breakpoint
CREATE TYPE "public"."session_mode" AS ENUM('interactive', 'headless');--> statement-breakpoint
CREATE TYPE "public"."session_status" AS ENUM('idle', 'running', 'ended', 'cancelled');--> statement-breakpoint
CREATE TYPE "public"."stop_reason" AS ENUM('reply', 'end_turn', 'max_tokens', 'step_cap', 'no_reply', 'error', 'cancelled', 'refusal');--> statement-breakpoint
CREATE TYPE "public"."todo_status" AS ENUM('pending', 'in_progress', 'completed', 'cancelled');--> statement-breakpoint
CREATE TYPE "public"."turn_status" AS ENUM('running', 'ended');--> statement-breakpoint
CREATE TYPE "public"."verdict" AS ENUM('COMPLETE', 'INCOMPLETE', 'UNVERIFIABLE');--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"mode" "session_mode" NOT NULL,
	"title" text,
	"status" "session_status" DEFAULT 'idle' NOT NULL,
	"profile" text DEFAULT 'general' NOT NULL,
	"root_agent_id" text,
	"last_seq" bigint DEFAULT 0 NOT NULL,
	"lease_owner" text,
	"lease_epoch" bigint DEFAULT 0 NOT NULL,
	"lease_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "agents" (
	"id" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"parent_id" text,
	"profile" text NOT NULL,
	"model" text,
	"returning" boolean NOT NULL,
	"depth" integer DEFAULT 0 NOT NULL,
	"status" "agent_status" DEFAULT 'pending' NOT NULL,
	"stop_reason" "stop_reason",
	"stop_detail" text,
	"raw_finish_reason" text,
	"failure_tag" text,
	"final_message_present" boolean,
	"ledger_kept" boolean DEFAULT false NOT NULL,
	"open_todo_count" integer,
	"verdict" "verdict",
	"verdict_rule" text,
	"reply_value" jsonb,
	"partial_text" text,
	"model_steps" integer DEFAULT 0 NOT NULL,
	"input_tokens" bigint DEFAULT 0 NOT NULL,
	"output_tokens" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "inbox_messages" (
	"id" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"arrival" bigint GENERATED ALWAYS AS IDENTITY (sequence name "inbox_messages_arrival_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"target_agent_id" text,
	"kind" "inbox_kind" NOT NULL,
	"payload" jsonb NOT NULL,
	"state" "inbox_state" DEFAULT 'queued' NOT NULL,
	"admitted_turn_id" text,
	"idempotency_key" text,
	"queued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"admitted_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "turns" (
	"id" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"status" "turn_status" DEFAULT 'running' NOT NULL,
	"stop_reason" "stop_reason",
	"model_steps" integer DEFAULT 0 NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "events" (
	"session_id" text NOT NULL,
	"seq" bigint NOT NULL,
	"agent_id" text,
	"turn_id" text,
	"type" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "events_session_seq_pk" PRIMARY KEY("session_id","seq")
);
--> statement-breakpoint
CREATE TABLE "todos" (
	"session_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"id" text NOT NULL,
	"content" text NOT NULL,
	"status" "todo_status" NOT NULL,
	"position" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "todos_agent_item_pk" PRIMARY KEY("agent_id","id")
);
--> statement-breakpoint
CREATE TABLE "workers" (
	"id" text PRIMARY KEY NOT NULL,
	"host" text NOT NULL,
	"pid" integer NOT NULL,
	"concurrency" integer DEFAULT 1 NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL,
	"draining_at" timestamp with time zone,
	"stopped_at" timestamp with time zone,
	"metrics" jsonb
);
--> statement-breakpoint
CREATE TABLE "agent_messages" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "agent_messages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"session_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"turn_id" text,
	"step_id" text,
	"role" text NOT NULL,
	"content" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "model_steps" (
	"id" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"turn_id" text NOT NULL,
	"number" integer NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"capped" boolean DEFAULT false NOT NULL,
	"request" jsonb,
	"response_text" text,
	"finish_reason" text,
	"raw_finish_reason" text,
	"input_tokens" bigint DEFAULT 0 NOT NULL,
	"output_tokens" bigint DEFAULT 0 NOT NULL,
	"retries" integer DEFAULT 0 NOT NULL,
	"error" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "tool_calls" (
	"id" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"turn_id" text NOT NULL,
	"step_id" text NOT NULL,
	"call_id" text NOT NULL,
	"name" text NOT NULL,
	"args" jsonb,
	"status" text DEFAULT 'running' NOT NULL,
	"result" jsonb,
	"is_error" boolean DEFAULT false NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_messages" ADD CONSTRAINT "inbox_messages_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "turns" ADD CONSTRAINT "turns_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "todos" ADD CONSTRAINT "todos_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_messages" ADD CONSTRAINT "agent_messages_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "model_steps" ADD CONSTRAINT "model_steps_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_calls" ADD CONSTRAINT "tool_calls_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sessions_status_idx" ON "sessions" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "sessions_lease_idx" ON "sessions" USING btree ("lease_expires_at");--> statement-breakpoint
CREATE INDEX "agents_session_idx" ON "agents" USING btree ("session_id","created_at");--> statement-breakpoint
CREATE INDEX "agents_parent_idx" ON "agents" USING btree ("parent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "inbox_idempotency_uq" ON "inbox_messages" USING btree ("session_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "inbox_queued_idx" ON "inbox_messages" USING btree ("session_id","arrival") WHERE state = 'queued';--> statement-breakpoint
CREATE INDEX "turns_session_idx" ON "turns" USING btree ("session_id","started_at");--> statement-breakpoint
CREATE INDEX "turns_agent_idx" ON "turns" USING btree ("agent_id");--> statement-breakpoint
CREATE INDEX "agent_messages_agent_idx" ON "agent_messages" USING btree ("agent_id","id");--> statement-breakpoint
CREATE INDEX "model_steps_agent_idx" ON "model_steps" USING btree ("agent_id","started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "tool_calls_step_call_uq" ON "tool_calls" USING btree ("step_id","call_id");--> statement-breakpoint
CREATE INDEX "tool_calls_agent_idx" ON "tool_calls" USING btree ("agent_id");