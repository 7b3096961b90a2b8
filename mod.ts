/**
 * @fello/agent: a scriptable coding-agent runtime for Deno. It gives an AI
 * agent built-in tools (ReadFile, WriteFile, EditFile, EditSymbol, Shell, Plan,
 * file_outline, search, Subagent, ImageAnalysis) behind two permission gates,
 * and runs the agent loop against any OpenAI-compatible endpoint.
 *
 * @example Use the tools from a script
 * ```ts
 * import { createTools } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const tools = createTools({ cwd: Deno.cwd(), permissionMode: "readOnly" });
 * const { content } = await tools.ReadFile.execute({ path: "deno.json", limit: 5 });
 * assert.match(content, /"name": "@fello\/agent"/);
 * ```
 *
 * Run it as a CLI with `deno run -A jsr:@fello/agent --help`.
 *
 * @module
 */
export { createTools } from "./tools/create_tools.ts";
export type { CreateToolsOptions, Tools } from "./tools/create_tools.ts";
export { ToolError } from "./internal/tool_error.ts";
export { createLocalFiles } from "./tools/local_files.ts";
export { createLocalProcesses } from "./tools/shell/local_processes.ts";
export type { LocalProcessesOptions } from "./tools/shell/local_processes.ts";
export type {
  Approve,
  Backend,
  ExecuteOptions,
  FileBackend,
  FileStat,
  JsonSchema,
  PermissionAction,
  PermissionAnswer,
  PermissionMode,
  PermissionRequest,
  ProcessBackend,
  RandomAccessFile,
  SandboxMode,
  SandboxSupport,
  ShellRequest,
  ShellResult,
  ShellSandbox,
  SymbolRange,
  SyntaxCheckFields,
  Tool,
  ToolKind,
  WriteOptions,
} from "./tools/types.ts";
export type { PermissionRules } from "./tools/permission_rules.ts";
import { runtime } from "./internal/runtime/runtime.ts";
export type { ReadFileInput, ReadFileResult } from "./tools/read/read_file.ts";
export type {
  WriteFileInput,
  WriteFileResult,
} from "./tools/write/write_file.ts";
export type { EditFileInput, EditFileResult } from "./tools/edit/edit_file.ts";
export type {
  EditSymbolInput,
  EditSymbolPosition,
  EditSymbolResult,
} from "./tools/edit/edit_symbol.ts";
export type { ShellInput } from "./tools/shell/shell.ts";
export type {
  PlanEntry,
  PlanInput,
  PlanPriority,
  PlanResult,
  PlanStatus,
} from "./tools/plan/plan.ts";
export type {
  SearchInput,
  SearchMatch,
  SearchResult,
} from "./tools/search/search.ts";
export type { FileOutlineInput } from "./tools/file_outline/file_outline.ts";
export { repoMap } from "./tools/repo_map/repo_map.ts";
export type { RepoMapOptions } from "./tools/repo_map/repo_map.ts";
export type { RepoMapInput } from "./tools/repo_map/repo_map_tool.ts";
export { fileOutline, outlineSymbols } from "./outline/outline.ts";
export type {
  FileOutlineOptions,
  OutlineSymbolsOptions,
} from "./outline/outline.ts";
export type { OutlineResult, OutlineSymbol } from "./outline/types.ts";
export { createAgent, DEFAULT_BASE_URL } from "./agent/agent.ts";
export { EndpointError } from "./agent/endpoint_error.ts";
export { findProjectInstructions } from "./agent/project_instructions.ts";
export type { ProjectInstructionsFile } from "./agent/project_instructions.ts";
export type {
  Agent,
  AgentApprove,
  AgentContextSummarizedEvent,
  AgentContextUse,
  AgentEvent,
  AgentFinishEvent,
  AgentFinishReason,
  AgentMessage,
  AgentOptions,
  AgentPermissionRequest,
  AgentPlanEvent,
  AgentReasoningEvent,
  AgentResult,
  AgentRetryEvent,
  AgentStepEvent,
  AgentSubagentContextSummarizedEvent,
  AgentSubagentEvent,
  AgentTextEvent,
  AgentToolCallEvent,
  AgentToolCallRecord,
  AgentToolErrorEvent,
  AgentToolEventBase,
  AgentToolResultEvent,
  AgentUsage,
  RunOptions,
} from "./agent/types.ts";
export type {
  SubagentInput,
  SubagentResult,
  SubagentTask,
  SubagentTaskResult,
} from "./agent/subagent.ts";
export type {
  ImageAnalysisInput,
  ImageAnalysisResult,
} from "./agent/image_analysis.ts";

if (import.meta.main) {
  const { main } = await import("./cli/main.ts");
  runtime.exit(await main(runtime.args));
}
