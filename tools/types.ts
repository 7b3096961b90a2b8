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
 */
export type PermissionMode = "ask" | "acceptEdits" | "allow" | "readOnly";

/** What a permission request is for. */
export type PermissionAction = "read" | "write" | "execute";

/** The question passed to {@linkcode Approve} when a tool needs approval. */
export interface PermissionRequest {
  /** The tool asking, e.g. `"WriteFile"`. */
  tool: string;
  /** The kind of operation. */
  action: PermissionAction;
  /** The absolute path involved, for file operations. */
  path?: string;
  /** The command line, for `execute`. */
  command?: string;
  /** Whether the path (or a command's cwd) lies outside the workspace, decided on real paths. */
  outsideWorkspace: boolean;
  /** One line a person can read to decide, e.g. `Write 120 bytes to "src/a.ts"`. */
  description: string;
}

/**
 * The answer to a permission request: `true` allows once, `false` refuses,
 * `"always"` allows this and similar later requests for the tools instance.
 */
export type PermissionAnswer = boolean | "always";

/** Decides a permission request; may ask a person. */
export type Approve = (
  request: PermissionRequest,
) => PermissionAnswer | Promise<PermissionAnswer>;

/** A JSON Schema object describing a tool's input. */
export type JsonSchema = { [key: string]: unknown };

/** Per-call options for {@linkcode Tool.execute}. */
export interface ExecuteOptions {
  /** Aborts the call: a running process is killed, a pending read stops. */
  signal?: AbortSignal;
}

/** The kind of a tool, as editors group them (ACP's tool kinds). */
export type ToolKind =
  | "read"
  | "edit"
  | "execute"
  | "search"
  | "think"
  | "other";

/** A built-in tool: usable by the agent, by scripts and through the protocols. */
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

/** Metadata of a file or folder, as a {@linkcode FileBackend} reports it. */
export interface FileStat {
  /** What the path names. */
  kind: "file" | "directory" | "other";
  /** Size in bytes. */
  size: number;
  /** Last modification time in milliseconds, when known. */
  mtimeMs: number | null;
  /** Unix permission bits, when known. */
  mode: number | null;
}

/** A file opened for positioned reads. */
export interface RandomAccessFile {
  /** Reads into `buffer` at byte `position`; resolves to the bytes read, 0 at the end. */
  read(buffer: Uint8Array, position: number): Promise<number>;
  /** Releases the file. */
  close(): void;
}

/**
 * Where file tools read and write: the local disk (checking Deno's permissions
 * before each operation) or an editor's buffers over ACP. Paths are absolute.
 * A missing path rejects with `Deno.errors.NotFound`.
 */
export interface FileBackend {
  /** Describes a path. */
  stat(path: string): Promise<FileStat>;
  /** Opens a file for positioned reads. */
  open(path: string): Promise<RandomAccessFile>;
  /** Lists the entry names of a folder (used to suggest similar names). */
  readDir(path: string): Promise<string[]>;
  /** Replaces a file's content atomically, creating parent folders and keeping its mode. */
  writeFile(path: string, data: Uint8Array): Promise<void>;
}

/** A command for a {@linkcode ProcessBackend} to run. */
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
}

/** The outcome of a command. A non-zero exit is a result, not an error. */
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
  /** Whether an abort signal stopped the command. */
  aborted?: boolean;
}

/** Where Shell runs commands: local subprocesses or an editor's terminals over ACP. */
export interface ProcessBackend {
  /** Runs a command to its end, a timeout or an abort. */
  run(request: ShellRequest, signal?: AbortSignal): Promise<ShellResult>;
}

/** The file and process backends of a tools instance. */
export interface Backend {
  /** File operations. */
  files: FileBackend;
  /** Subprocesses. */
  processes: ProcessBackend;
}
