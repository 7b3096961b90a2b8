// createTools: one instance of every built-in tool sharing a workspace,
// a permission gate and a backend. Creating it starts nothing.
import { ToolContext } from "./context.ts";
import { rememberContext } from "./context_of.ts";
import { createLocalFiles } from "./local_files.ts";
import { createLocalProcesses } from "./shell/local_processes.ts";
import {
  createReadFile,
  type ReadFileInput,
  type ReadFileResult,
} from "./read/read_file.ts";
import {
  createWriteFile,
  type WriteFileInput,
  type WriteFileResult,
} from "./write/write_file.ts";
import {
  createEditFile,
  type EditFileInput,
  type EditFileResult,
} from "./edit/edit_file.ts";
import {
  createEditSymbol,
  type EditSymbolInput,
  type EditSymbolResult,
} from "./edit/edit_symbol.ts";
import { createShell, type ShellInput } from "./shell/shell.ts";
import {
  createPlan,
  type PlanEntry,
  type PlanInput,
  type PlanResult,
} from "./plan/plan.ts";
import {
  createSearch,
  type SearchInput,
  type SearchResult,
} from "./search/search.ts";
import {
  createFileOutline,
  type FileOutlineInput,
} from "./file_outline/file_outline.ts";
import { createRepoMap, type RepoMapInput } from "./repo_map/repo_map_tool.ts";
import type {
  Approve,
  Backend,
  PermissionMode,
  SandboxMode,
  ShellResult,
  Tool,
} from "./types.ts";
import type { PermissionRules } from "./permission_rules.ts";
import { runtime } from "../internal/runtime/runtime.ts";

/**
 * Options for {@linkcode createTools}.
 *
 * Needs no permission itself; the tools need `--allow-read`, `--allow-write` and `--allow-run` for what they do.
 *
 * @example Tools that ask before each edit
 * ```ts
 * import { createTools, type CreateToolsOptions } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const asked: string[] = [];
 * const options: CreateToolsOptions = {
 *   cwd: await Deno.makeTempDir(),
 *   permissionMode: "ask",
 *   approve: (request) => (asked.push(request.tool), true),
 * };
 * const tools = createTools(options);
 * await tools.WriteFile.execute({ path: "a.txt", content: "hi\n" });
 * assert.deepEqual(asked, ["WriteFile"]);
 * ```
 */
export interface CreateToolsOptions {
  /** The workspace root; relative paths resolve against it. Defaults to `Deno.cwd()`. */
  cwd?: string;
  /** What needs approval; defaults to `"ask"`. */
  permissionMode?: PermissionMode;
  /** Answers permission requests; without it, asking means refusing. */
  approve?: Approve;
  /**
   * Allow and deny rules applied before the mode (see
   * {@linkcode PermissionRules}); a rule that does not parse throws a TypeError.
   */
  permissions?: PermissionRules;
  /** Called with the whole plan each time the Plan tool replaces it. */
  onPlan?: (entries: PlanEntry[]) => void;
  /**
   * Replaces the local disk (ReadFile, WriteFile, EditFile) and subprocesses
   * (Shell), e.g. with an editor's over ACP; see `createLocalFiles()` and
   * `createLocalProcesses()` for the defaults. search, rg and file_outline
   * read the local disk.
   */
  backend?: Partial<Backend>;
  /**
   * When Shell runs its commands in the OS sandbox (Linux, bubblewrap):
   * `"auto"` (the default) in `ask`, `acceptEdits` and `readOnly`, where
   * bubblewrap works; `"required"` in every mode, refusing to run a command
   * without it; `"off"` never. A sandboxed command sees the filesystem
   * read-only except the workspace (read-only too in `readOnly`) and a
   * private `/tmp`, has no network unless `sandboxNetwork`, and dies with
   * its parent; in `acceptEdits` and `readOnly` it runs unasked.
   */
  sandbox?: SandboxMode;
  /** Lets sandboxed commands use the network; default false. */
  sandboxNetwork?: boolean;
}

/**
 * The built-in tools of one workspace.
 *
 * Requires `--allow-read` for reads, `--allow-write` for writes and edits and `--allow-run` for Shell.
 *
 * @example Switch to read-only after a first edit
 * ```ts
 * import { createTools, type Tools } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const cwd = await Deno.makeTempDir();
 * const tools: Tools = createTools({ cwd, permissionMode: "acceptEdits" });
 * await tools.WriteFile.execute({ path: "a.txt", content: "once\n" });
 * tools.permissionMode = "readOnly";
 * await assert.rejects(tools.WriteFile.execute({ path: "a.txt", content: "twice\n" }));
 * assert.equal(await Deno.readTextFile(`${cwd}/a.txt`), "once\n");
 * ```
 */
export interface Tools {
  /** Reads a text file, whole or by lines. */
  readonly ReadFile: Tool<ReadFileInput, ReadFileResult>;
  /** Creates or overwrites a file atomically. */
  readonly WriteFile: Tool<WriteFileInput, WriteFileResult>;
  /** Replaces exact text in a file. */
  readonly EditFile: Tool<EditFileInput, EditFileResult>;
  /** Replaces a symbol found by name, or inserts lines before or after it. */
  readonly EditSymbol: Tool<EditSymbolInput, EditSymbolResult>;
  /** Runs a command with bounded output and a killable process tree. */
  readonly Shell: Tool<ShellInput, ShellResult>;
  /** Replaces the execution plan. */
  readonly Plan: Tool<PlanInput, PlanResult>;
  /** Searches the workspace's text files for a literal or a regex. */
  readonly search: Tool<SearchInput, SearchResult>;
  /** Lists a source file's symbols with line ranges and doc summaries. */
  readonly file_outline: Tool<FileOutlineInput, string>;
  /** The repository's most relevant definitions within a token budget. */
  readonly repo_map: Tool<RepoMapInput, string>;
  /** The current plan, as the last Plan call left it. */
  readonly plan: readonly PlanEntry[];
  /** The workspace root, absolute. */
  readonly cwd: string;
  /** The permission mode in force; assign to switch it for later calls. */
  permissionMode: PermissionMode;
  /** When Shell runs its commands in the OS sandbox. */
  readonly sandbox: SandboxMode;
}

/**
 * Creates the built-in tools for a workspace.
 *
 * Requires `--allow-read` for reads, `--allow-write` for writes and edits, and
 * `--allow-run` for Shell, each for the paths and commands involved.
 *
 * @example Read the first lines of a file
 * ```ts
 * import { createTools } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const tools = createTools({ cwd: Deno.cwd(), permissionMode: "ask" });
 * const result = await tools.ReadFile.execute({ path: "deno.json", line: 1, limit: 3 });
 * assert.equal(result.content.split("\n")[0], "{");
 * ```
 *
 * @param options The workspace, permission mode, approver and backends.
 * @returns The tools, sharing one permission gate.
 * @throws {TypeError} When `permissionMode` is not one of the four modes, or
 * `sandbox` not one of its three.
 */
export function createTools(options: CreateToolsOptions = {}): Tools {
  const context = new ToolContext({
    workspace: options.cwd ?? runtime.cwd(),
    permissionMode: options.permissionMode ?? "ask",
    approve: options.approve,
    permissions: options.permissions,
    files: options.backend?.files ?? createLocalFiles(),
    processes: options.backend?.processes ?? createLocalProcesses(),
    sandbox: options.sandbox,
    sandboxNetwork: options.sandboxNetwork,
  });
  const plan = createPlan(options.onPlan);
  return rememberContext(context, {
    ReadFile: createReadFile(context),
    WriteFile: createWriteFile(context),
    EditFile: createEditFile(context),
    EditSymbol: createEditSymbol(context),
    Shell: createShell(context),
    Plan: plan.tool,
    search: createSearch(context),
    file_outline: createFileOutline(context),
    repo_map: createRepoMap(context),
    get plan(): readonly PlanEntry[] {
      return plan.entries();
    },
    cwd: context.workspace,
    sandbox: context.sandbox,
    get permissionMode(): PermissionMode {
      return context.permissionMode;
    },
    set permissionMode(mode: PermissionMode) {
      context.permissionMode = mode;
    },
  });
}
