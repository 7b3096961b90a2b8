/**
 * The public types shared by every tool: the tool shape, permission modes and
 * requests, and the backends that tools read, write and run through.
 *
 * @module
 */

/**
 * How much a tools instance may do without asking.
 *
 * | mode        | read inside | read outside | write inside | write outside | execute |
 * |-------------|-------------|--------------|--------------|---------------|---------|
 * | ask         | yes         | ask          | ask          | ask           | ask     |
 * | acceptEdits | yes         | ask          | yes          | ask           | ask     |
 * | allow       | yes         | yes          | yes          | yes           | yes     |
 * | readOnly    | yes         | ask          | refused      | refused       | refused |
 *
 * A type only: needs no permission.
 *
 * @example Let the tools edit the workspace without asking
 * ```ts
 * import { createTools, type PermissionMode } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const mode: PermissionMode = "acceptEdits";
 * const tools = createTools({ cwd: await Deno.makeTempDir(), permissionMode: mode });
 * const { created } = await tools.WriteFile.execute({ path: "a.txt", content: "hi\n" });
 * assert.equal(tools.permissionMode, "acceptEdits");
 * assert.equal(created, true);
 * ```
 */
export type PermissionMode = "ask" | "acceptEdits" | "allow" | "readOnly";

/**
 * What a permission request is for.
 *
 * A type only: needs no permission.
 *
 * @example Refuse every command, allow the rest
 * ```ts
 * import { createTools, type PermissionAction, type PermissionRequest } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * function decide(request: PermissionRequest): boolean {
 *   const refused: PermissionAction[] = ["execute"];
 *   return !refused.includes(request.action);
 * }
 * const tools = createTools({ cwd: await Deno.makeTempDir(), approve: decide });
 * await tools.WriteFile.execute({ path: "a.txt", content: "ok\n" });
 * await assert.rejects(tools.Shell.execute({ command: "echo hi" }), /Refused/i);
 * ```
 */
export type PermissionAction = "read" | "write" | "execute";

/**
 * The question passed to {@linkcode Approve} when a tool needs approval.
 *
 * A type only: needs no permission.
 *
 * @example Show what a tool asks for
 * ```ts
 * import { createTools, type PermissionRequest } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * function show(request: PermissionRequest): string {
 *   const where = request.outsideWorkspace ? " (outside the workspace)" : "";
 *   return `${request.tool}: ${request.description}${where}`;
 * }
 * const asked: string[] = [];
 * const tools = createTools({
 *   cwd: await Deno.makeTempDir(),
 *   approve: (request) => (asked.push(show(request)), true),
 * });
 * await tools.WriteFile.execute({ path: "a.txt", content: "hi\n" });
 * assert.match(asked[0], /^WriteFile: .*a\.txt/);
 * ```
 */
export interface PermissionRequest {
  /** The tool asking, e.g. `"WriteFile"`. */
  tool: string;
  /** The kind of operation. */
  action: PermissionAction;
  /**
   * The absolute path involved, for file operations (a command's working
   * folder, for `execute`). Outside the workspace it is the real path, a
   * symlink's target: what is really read or written.
   */
  path?: string;
  /** The command line, for `execute`; control characters are escaped as in `description`. */
  command?: string;
  /**
   * For `execute` where a sandbox is in force (see `createTools`'
   * `sandbox`): whether the command runs in it; false when it would run
   * unconfined (`sandbox: false`).
   */
  sandboxed?: boolean;
  /** The variables a command sets over the inherited environment, when it sets any. */
  env?: Record<string, string>;
  /** Whether the path (or a command's cwd) lies outside the workspace, decided on real paths. */
  outsideWorkspace: boolean;
  /**
   * One line a person can read to decide, e.g. `Write 120 bytes to "src/a.ts"`,
   * `Run "make" with CC=clang`, or `Read "link/a.txt" (really "/etc/a.txt")`
   * for a path that leads out through a symlink. Control characters (newline
   * and tab too), DEL, C1 controls and bidirectional marks are escaped
   * (`\r`, `\x1b`, `\u202e`), so it can be shown as is.
   */
  description: string;
}

/**
 * The answer to a permission request: `true` allows once, `false` refuses,
 * `"always"` allows this and similar later requests for the tools instance.
 *
 * A type only: needs no permission.
 *
 * @example Allow reads for good, ask about the rest once
 * ```ts
 * import { createTools, type PermissionAnswer, type PermissionRequest } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * function answer(request: PermissionRequest): PermissionAnswer {
 *   return request.action === "read" ? "always" : false;
 * }
 * const tools = createTools({ cwd: await Deno.makeTempDir(), approve: answer });
 * await assert.rejects(tools.WriteFile.execute({ path: "a.txt", content: "" }));
 * assert.equal(answer({ tool: "ReadFile", action: "read", description: "Read", outsideWorkspace: true, path: "/etc/hosts" } as PermissionRequest), "always");
 * ```
 */
export type PermissionAnswer = boolean | "always";

/**
 * Decides a permission request; may ask a person.
 *
 * Needs no permission itself; the tool still needs Deno's (e.g. `--allow-write`) for what is approved.
 *
 * @example Approve writes inside the workspace only
 * ```ts
 * import { type Approve, createTools } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const approve: Approve = (request) =>
 *   request.action === "write" && !request.outsideWorkspace;
 * const tools = createTools({ cwd: await Deno.makeTempDir(), approve });
 * const inside = await tools.WriteFile.execute({ path: "a.txt", content: "ok\n" });
 * assert.equal(inside.created, true);
 * const outside = `${await Deno.makeTempDir()}/b.txt`;
 * await assert.rejects(tools.WriteFile.execute({ path: outside, content: "no\n" }));
 * ```
 */
export type Approve = (
  request: PermissionRequest,
) => PermissionAnswer | Promise<PermissionAnswer>;

/**
 * A JSON Schema object describing a tool's input.
 *
 * A type only: needs no permission.
 *
 * @example List a tool's input properties
 * ```ts
 * import { createTools, type JsonSchema } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const schema: JsonSchema = createTools().ReadFile.inputSchema;
 * const properties = Object.keys(schema.properties as JsonSchema);
 * assert.ok(properties.includes("path") && properties.includes("limit"));
 * ```
 */
export type JsonSchema = { [key: string]: unknown };

/**
 * Per-call options for {@linkcode Tool.execute}.
 *
 * Needs no permission itself; the call needs the tool's.
 *
 * @example Give a command ten seconds
 * ```ts
 * import { createTools, type ExecuteOptions } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const tools = createTools({ cwd: await Deno.makeTempDir(), permissionMode: "allow" });
 * const options: ExecuteOptions = { signal: AbortSignal.timeout(10_000) };
 * const { exitCode } = await tools.Shell.execute({ command: "echo hi" }, options);
 * assert.equal(exitCode, 0);
 * ```
 */
export interface ExecuteOptions {
  /** Aborts the call: a running process is killed, a pending read stops. */
  signal?: AbortSignal;
}

/**
 * The kind of a tool, as editors group them (ACP's tool kinds).
 *
 * A type only: needs no permission.
 *
 * @example Group tools by kind
 * ```ts
 * import { createTools, type ToolKind } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const kinds = new Map<ToolKind, string[]>();
 * for (const tool of Object.values(createTools())) {
 *   if (typeof tool !== "object" || tool === null || !("kind" in tool)) continue;
 *   kinds.set(tool.kind, [...(kinds.get(tool.kind) ?? []), tool.name]);
 * }
 * assert.ok(kinds.get("read")?.includes("ReadFile"));
 * assert.ok(kinds.get("execute")?.includes("Shell"));
 * ```
 */
export type ToolKind =
  | "read"
  | "edit"
  | "execute"
  | "search"
  | "think"
  | "other";

/**
 * A built-in tool: usable by the agent, by scripts and through the protocols.
 *
 * Needs no permission itself; `execute` needs the tool's (e.g. ReadFile `--allow-read`).
 *
 * @example Call a tool and render its result for a model
 * ```ts
 * import { createTools, type Tool } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * async function runTool<I, O>(tool: Tool<I, O>, input: I): Promise<string> {
 *   return tool.toModelText(await tool.execute(input));
 * }
 * const text = await runTool(createTools().ReadFile, { path: "deno.json", limit: 3 });
 * assert.match(text, /^1\t\{/);
 * ```
 */
export interface Tool<Input, Output> {
  /** The name the model calls the tool by, e.g. `"ReadFile"`. */
  readonly name: string;
  /** What kind of operation the tool performs. */
  readonly kind: ToolKind;
  /** The model-facing description. */
  readonly description: string;
  /** The JSON Schema of the input. */
  readonly inputSchema: JsonSchema;
  /**
   * Validates the input, checks both permission gates and runs the tool.
   * Every failure is thrown as a `ToolError`.
   */
  execute(input: Input, options?: ExecuteOptions): Promise<Output>;
  /** Renders a result as the text the model sees. */
  toModelText(output: Output): string;
}

/**
 * Metadata of a file or folder, as a {@linkcode FileBackend} reports it.
 *
 * A type only: needs no permission.
 *
 * @example Describe a file for a custom backend
 * ```ts
 * import type { FileStat } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const stat: FileStat = { kind: "file", size: 12, mtimeMs: Date.now(), mode: 0o644 };
 * assert.equal(stat.kind, "file");
 * ```
 */
export interface FileStat {
  /** What the path names. */
  kind: "file" | "directory" | "other";
  /** Size in bytes. */
  size: number;
  /** Last modification time in milliseconds, when known. */
  mtimeMs: number | null;
  /** Unix permission bits, when known. */
  mode: number | null;
  /**
   * Last status change time (ctime) in milliseconds, when known: unlike the
   * modification time, no one can set it back, so a cache trusts it more.
   */
  changeMs?: number | null;
  /** The device and inode, when known: which file this is, whatever its name. */
  dev?: number | null;
  /** See `dev`. */
  ino?: number | null;
}

/**
 * Where a symbol addressed by name is in its file: what ReadFile `symbol`
 * read and what EditSymbol wrote. Lines are 1-based and inclusive, and start
 * at the symbol's doc comment when it has one.
 *
 * A type only: needs no permission.
 *
 * @example Read one method by its name path
 * ```ts
 * import { createTools, type SymbolRange } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const cwd = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${cwd}/a.ts`, "class A {\n  /** Runs. *\/\n  run() {}\n}\n");
 * const { symbol } = await createTools({ cwd }).ReadFile.execute({ path: "a.ts", symbol: "run" });
 * const range: SymbolRange = symbol!;
 * assert.deepEqual(range, { name: "A.run", kind: "method", startLine: 2, endLine: 3 });
 * ```
 */
export interface SymbolRange {
  /** The symbol's full name path, e.g. `Outliner.run`. */
  name: string;
  /** Its kind as the outline labels it: `function`, `class`, `method`, ... */
  kind: string;
  /** First line (of its doc comment, when it has one). */
  startLine: number;
  /** Last line. */
  endLine: number;
}

/**
 * A file opened for positioned reads.
 *
 * A type only: needs no permission.
 *
 * @example Serve a file held in memory
 * ```ts
 * import type { RandomAccessFile } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * function inMemory(bytes: Uint8Array): RandomAccessFile {
 *   return {
 *     read(buffer, position) {
 *       const chunk = bytes.subarray(position, position + buffer.length);
 *       buffer.set(chunk);
 *       return Promise.resolve(chunk.length);
 *     },
 *     close() {},
 *   };
 * }
 * const buffer = new Uint8Array(3);
 * const read = await inMemory(new TextEncoder().encode("hello")).read(buffer, 1);
 * assert.equal(new TextDecoder().decode(buffer.subarray(0, read)), "ell");
 * ```
 */
export interface RandomAccessFile {
  /** Reads into `buffer` at byte `position`; resolves to the bytes read, 0 at the end. */
  read(buffer: Uint8Array, position: number): Promise<number>;
  /** Releases the file. */
  close(): void;
  /** Describes the open file itself (not the path it was opened by). */
  stat?(): Promise<FileStat>;
  /**
   * The absolute path the open file has now, as the system tells it
   * (undefined when it cannot): tools check they opened what they decided on.
   */
  openedPath?(): string | undefined;
}

/**
 * Where file tools read and write: the local disk (checking Deno's permissions
 * before each operation) or an editor's buffers over ACP. Paths are absolute.
 * A missing path rejects with `Deno.errors.NotFound`.
 *
 * The local backend requires `--allow-read` and `--allow-write`; a custom one needs what it uses.
 *
 * @example Log every write of the local disk
 * ```ts
 * import {
 *   createLocalFiles,
 *   createTools,
 *   type FileBackend,
 * } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const log: string[] = [];
 * function logged(files: FileBackend): FileBackend {
 *   return {
 *     stat: (path) => files.stat(path),
 *     open: (path) => files.open(path),
 *     readDir: (path) => files.readDir(path),
 *     writeFile: (path, data) => {
 *       log.push(`writing ${data.length} bytes to ${path}`);
 *       return files.writeFile(path, data);
 *     },
 *   };
 * }
 * const tools = createTools({
 *   cwd: await Deno.makeTempDir(),
 *   permissionMode: "acceptEdits",
 *   backend: { files: logged(createLocalFiles()) },
 * });
 * await tools.WriteFile.execute({ path: "a.txt", content: "hi\n" });
 * assert.match(log[0], /^writing 3 bytes to .*a\.txt$/);
 * ```
 */
export interface FileBackend {
  /** Describes a path. */
  stat(path: string): Promise<FileStat>;
  /** Opens a file for positioned reads. */
  open(path: string): Promise<RandomAccessFile>;
  /** Lists the entry names of a folder (used to suggest similar names). */
  readDir(path: string): Promise<string[]>;
  /** Replaces a file's content atomically, creating parent folders and keeping its mode. */
  writeFile(
    path: string,
    data: Uint8Array,
    options?: WriteOptions,
  ): Promise<void>;
}

/**
 * What a tool decided before a write, for the backend to hold it to.
 *
 * A type only: needs no permission.
 *
 * @example Replace a file only if it is still the version read
 * ```ts
 * import { createLocalFiles, type WriteOptions } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const path = `${await Deno.makeTempDir()}/a.txt`;
 * await Deno.writeTextFile(path, "one\n");
 * const files = createLocalFiles();
 * const options: WriteOptions = { realPath: path, expect: await files.stat(path) };
 * await Deno.writeTextFile(path, "two, written by someone else\n");
 * await assert.rejects(files.writeFile(path, new TextEncoder().encode("three\n"), options));
 * ```
 */
export interface WriteOptions {
  /**
   * The real path the write was decided on: the local backend writes that
   * file (following no symlink) and refuses when its folder leads elsewhere now.
   */
  realPath?: string;
  /**
   * The file as it was read: the local backend replaces it only if it is
   * still that file (device, inode, size and times), else rejects with an
   * error named `FileChangedError`.
   */
  expect?: FileStat;
}

/**
 * A command for a {@linkcode ProcessBackend} to run.
 *
 * A type only: needs no permission.
 *
 * @example Run a command without a shell
 * ```ts
 * import { createLocalProcesses, type ShellRequest } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const request: ShellRequest = {
 *   command: "echo",
 *   args: ["one", "two"],
 *   cwd: Deno.cwd(),
 *   outputByteLimit: 32 * 1024,
 *   timeoutSeconds: 30,
 * };
 * const result = await createLocalProcesses().run(request);
 * assert.equal(result.output, "one two\n");
 * ```
 */
export interface ShellRequest {
  /** The command line (run by `sh -c`) or, with `args`, the executable. */
  command: string;
  /** Arguments; when present, no shell interprets anything. */
  args?: string[];
  /** Absolute working folder. */
  cwd: string;
  /** Variables merged over the inherited environment. */
  env?: Record<string, string>;
  /** Bytes of output kept in `output`. */
  outputByteLimit: number;
  /** Kill the process tree after this many seconds. */
  timeoutSeconds?: number;
  /**
   * Called with each piece of output as it arrives (escape sequences removed,
   * characters whole), for a live view; the result's `output` stays bounded.
   */
  onOutput?: (text: string) => void;
  /**
   * Run the command in the OS sandbox with these allowances; only sent to a
   * backend whose `sandbox()` said it can.
   */
  sandbox?: ShellSandbox;
}

/**
 * What a sandboxed command may do besides reading files: the folders it may
 * write (real paths; a private `/tmp` is always writable) and whether it may
 * use the network.
 *
 * A type only: needs no permission.
 *
 * @example A sandbox that may write one folder and nothing else
 * ```ts
 * import type { ShellSandbox } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const sandbox: ShellSandbox = { writable: [Deno.cwd()], network: false };
 * assert.equal(sandbox.network, false);
 * ```
 */
export interface ShellSandbox {
  /** Folders the command may write; everything else but `/tmp` is read-only. */
  writable: string[];
  /** Folders to keep visible (read-only) over the private `/tmp`. */
  readable?: string[];
  /** Whether the command may use the network. */
  network: boolean;
}

/**
 * When Shell runs its commands in the OS sandbox (bubblewrap, Linux only):
 * `"auto"` in the modes `ask`, `acceptEdits` and `readOnly` when bubblewrap
 * works here, else unconfined as with `"off"`; `"required"` in every mode,
 * refusing to run a command when the sandbox is missing.
 *
 * A type only: needs no permission.
 *
 * @example Never run a command unconfined
 * ```ts
 * import { createTools, type SandboxMode } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const sandbox: SandboxMode = "required";
 * const tools = createTools({ cwd: await Deno.makeTempDir(), sandbox });
 * assert.equal(tools.sandbox, "required");
 * ```
 */
export type SandboxMode = "auto" | "off" | "required";

/**
 * Whether a {@linkcode ProcessBackend} can run commands in the OS sandbox,
 * and when not, what is missing.
 *
 * A type only: needs no permission.
 *
 * @example A backend that cannot sandbox says why
 * ```ts
 * import type { SandboxSupport } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const support: SandboxSupport = { available: false, missing: "no bubblewrap" };
 * assert.equal(support.available ? "" : support.missing, "no bubblewrap");
 * ```
 */
export type SandboxSupport =
  | { available: true }
  | { available: false; missing: string };

/**
 * The outcome of a command. A non-zero exit is a result, not an error.
 *
 * Running a command requires `--allow-run`.
 *
 * @example Tell a failed command from a timeout
 * ```ts
 * import { createTools, type ShellResult } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const tools = createTools({ cwd: await Deno.makeTempDir(), permissionMode: "allow" });
 * const result: ShellResult = await tools.Shell.execute({ command: "exit 3" });
 * assert.equal(result.timedOut ? "timed out" : `exit ${result.exitCode}`, "exit 3");
 * ```
 */
export interface ShellResult {
  /** The exit code, or null when a signal ended the process. */
  exitCode: number | null;
  /** The signal that ended the process, e.g. `"SIGKILL"`. */
  signal: string | null;
  /** Whether the timeout killed the process tree. */
  timedOut: boolean;
  /** Whether the output was cut to `outputByteLimit`. */
  truncated: boolean;
  /** Stdout and stderr interleaved in arrival order (head and tail when truncated). */
  output: string;
  /** A file holding the full output, when it was truncated. */
  logPath?: string;
  /** Whether the log at `logPath` holds only the first 256 MiB of the output (it says so at its end). */
  logTruncated?: boolean;
  /** Whether an abort signal stopped the command. */
  aborted?: boolean;
  /**
   * Whether the command ran in the OS sandbox. The Shell tool always sets
   * it; a {@linkcode ProcessBackend} may leave it out.
   */
  sandboxed?: boolean;
}

/**
 * Where Shell runs commands: local subprocesses or an editor's terminals over ACP.
 *
 * The local backend requires `--allow-run`; a custom one needs what it uses.
 *
 * @example Refuse every command
 * ```ts
 * import { createTools, type ProcessBackend } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const processes: ProcessBackend = {
 *   run: () => Promise.reject(new Error("commands are disabled here")),
 * };
 * const tools = createTools({ permissionMode: "allow", backend: { processes } });
 * await assert.rejects(tools.Shell.execute({ command: "ls" }), /disabled here/);
 * ```
 */
export interface ProcessBackend {
  /** Runs a command to its end, a timeout or an abort. */
  run(request: ShellRequest, signal?: AbortSignal): Promise<ShellResult>;
  /**
   * Whether `run` can honour a request's `sandbox`; a backend without this
   * method cannot, so its commands run unconfined (or are refused under
   * sandbox `"required"`).
   */
  sandbox?(): Promise<SandboxSupport>;
}

/**
 * The file and process backends of a tools instance.
 *
 * The local backends require `--allow-read`, `--allow-write` and `--allow-run`; custom ones need what they use.
 *
 * @example Replace the subprocesses, keep the local disk
 * ```ts
 * import { type Backend, createTools } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const backend: Partial<Backend> = {
 *   processes: { run: () => Promise.reject(new Error("no commands")) },
 * };
 * const tools = createTools({ permissionMode: "allow", backend });
 * const { content } = await tools.ReadFile.execute({ path: "deno.json", limit: 1 });
 * assert.equal(content.split("\n")[0], "{");
 * await assert.rejects(tools.Shell.execute({ command: "ls" }), /no commands/);
 * ```
 */
export interface Backend {
  /** File operations. */
  files: FileBackend;
  /** Subprocesses. */
  processes: ProcessBackend;
}

/**
 * What WriteFile and EditFile say about the syntax of the file they wrote, in
 * one of the outline's languages (see README, "Syntax check"): set only when
 * the file still has errors.
 *
 * A type only: needs no permission (the tools require `--allow-read` and
 * `--allow-write`).
 *
 * @example An edit that leaves a file's old error in place
 * ```ts
 * import { createTools, type SyntaxCheckFields } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const cwd = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${cwd}/a.py`, "def f(:\n    return 1\n");
 * const tools = createTools({ cwd, permissionMode: "acceptEdits" });
 * const result: SyntaxCheckFields = await tools.EditFile.execute({
 *   path: "a.py",
 *   oldText: "return 1",
 *   newText: "return 2",
 * });
 * assert.deepEqual(result.syntaxErrors, 1);
 * assert.equal(result.newSyntaxErrors, undefined);
 * ```
 */
export interface SyntaxCheckFields {
  /**
   * The syntax errors the file has after the call, as its language's
   * grammar reads them; set only when some remain.
   */
  syntaxErrors?: number;
  /**
   * New syntax errors the call wrote (with `allowSyntaxErrors`, or in a
   * language whose grammar only reports), each as `line:column: what` with
   * its source line and a caret.
   */
  newSyntaxErrors?: string;
}
