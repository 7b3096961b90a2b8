// The system prompt: the built-in text, facts about the workspace, and the
// caller's own instructions; children get a note on how to report.
import SYSTEM_PROMPT from "./system_prompt.txt" with { type: "text" };
import { runtime } from "../internal/runtime/runtime.ts";

const SUBAGENT_NOTE =
  `You are a helper agent running one task for another agent, which sees
only your final message. Work on your own without asking questions. End with a complete,
precise report of what you found or changed, with file paths and line numbers; no preamble.`;

/** Builds the instructions for a main agent or a Subagent child. */
export function buildInstructions(options: {
  workspace: string;
  extra?: string;
  child?: boolean;
}): string {
  const facts = [
    `Workspace (the current directory of your tools): ${options.workspace}`,
    `Platform: ${runtime.build.os} (${runtime.build.arch})`,
    `Today's date: ${new Date().toISOString().slice(0, 10)}`,
  ].join("\n");
  const parts = [SYSTEM_PROMPT.trim(), facts];
  if (options.child) parts.push(SUBAGENT_NOTE);
  if (options.extra?.trim()) {
    parts.push(`Additional instructions:\n${options.extra.trim()}`);
  }
  return parts.join("\n\n");
}
