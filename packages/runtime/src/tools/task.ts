import { z } from "zod";
import { defineTool, ToolError } from "./define-tool";

/** Spawns a subagent (or resumes one); see DESIGN.md's built-in tools table. */
export const taskTool = defineTool("task", {
  description:
    "Run a subagent of a profile on a prompt. Foreground (default): wait and get its result, with evidence of whether it " +
    "really finished. background: true returns its id at once and its result arrives later as a message. " +
    "resume: <agentId> continues an agent that stopped, from its open todo items.",
  parameters: z
    .strictObject({
      profile: z.string().min(1).optional().describe("Profile of the new subagent (not needed with resume)"),
      prompt: z.string().min(1).max(100_000).optional().describe("What the subagent should do"),
      background: z.boolean().optional().describe("Return at once; the result arrives later"),
      resume: z.string().min(1).optional().describe("Instance id of an ended agent to continue"),
    })
    .refine((a) => a.resume !== undefined || (a.profile !== undefined && a.prompt !== undefined), {
      message: "give profile and prompt to start a subagent, or resume with an agent id",
    }),
  async execute(args, ctx) {
    if (!ctx.subagents || !ctx.call) throw new ToolError("subagents are not available here");
    const background = args.background ?? false;
    if (args.resume) return ctx.subagents.resume({ agentId: args.resume, background }, ctx.call);
    return ctx.subagents.spawn({ profile: args.profile!, prompt: args.prompt!, background }, ctx.call);
  },
});
