// The shapes of the runtime facade (runtime.ts): a subset of Deno's
// namespace, which Deno's own objects satisfy and _node.ts builds for Bun and
// Node.

/** The runtime the package runs on. */
export type RuntimeName = "deno" | "bun" | "node";

/** What an error means, whichever runtime raised it. */
export type ErrorKind =
  | "notFound"
  | "alreadyExists"
  | "permissionDenied"
  | "notCapable"
  | "isADirectory"
  | "notADirectory"
  | "brokenPipe";

/** A signal name, as Deno spells them. */
export type Signal = Deno.Signal;

/** What `stat` tells about a file (Deno's `FileInfo` fields). */
export interface FileInfo {
  isFile: boolean;
  isDirectory: boolean;
  isSymlink: boolean;
  size: number;
  mtime: Date | null;
  atime: Date | null;
  birthtime: Date | null;
  ctime: Date | null;
  dev: number;
  ino: number | null;
  mode: number | null;
  nlink: number | null;
  uid: number | null;
  gid: number | null;
  rdev: number | null;
  blksize: number | null;
  blocks: number | null;
}

/** One entry of a folder listing. */
export interface DirEntry {
  name: string;
  isFile: boolean;
  isDirectory: boolean;
  isSymlink: boolean;
}

/** How to open a file (Deno's `OpenOptions`). */
export interface OpenOptions {
  read?: boolean;
  write?: boolean;
  append?: boolean;
  truncate?: boolean;
  create?: boolean;
  createNew?: boolean;
  mode?: number;
}

/** Where `seek` counts from (Deno's `SeekMode` values). */
export const SeekMode: { Start: 0; Current: 1; End: 2 } = {
  Start: 0,
  Current: 1,
  End: 2,
};

/** An open file: the members of Deno's `FsFile` this package uses. */
export interface FsFile extends Disposable {
  read(p: Uint8Array): Promise<number | null>;
  readSync(p: Uint8Array): number | null;
  write(p: Uint8Array): Promise<number>;
  writeSync(p: Uint8Array): number;
  seek(offset: number, whence: 0 | 1 | 2): Promise<number>;
  seekSync(offset: number, whence: 0 | 1 | 2): number;
  truncate(len?: number): Promise<void>;
  syncData(): Promise<void>;
  stat(): Promise<FileInfo>;
  statSync(): FileInfo;
  /**
   * Takes an OS lock on the file without waiting. Under Bun and Node the lock
   * holds within the process only (they have no file-lock call).
   */
  tryLock(exclusive?: boolean): Promise<boolean>;
  /** Waits for the advisory lock (flock on Deno; within this process on Bun). */
  lock(exclusive?: boolean): Promise<void>;
  close(): void;
}

/** Options for a temporary file or folder. */
export interface MakeTempOptions {
  dir?: string;
  prefix?: string;
  suffix?: string;
}

/** How a child's standard stream is connected. */
export type Stdio = "piped" | "inherit" | "null";

/** Options for {@linkcode Runtime.command} (Deno's `CommandOptions`). */
export interface CommandOptions {
  args?: string[];
  cwd?: string;
  env?: Record<string, string>;
  clearEnv?: boolean;
  stdin?: Stdio;
  stdout?: Stdio;
  stderr?: Stdio;
  /** Starts the child in a process group of its own (setsid). */
  detached?: boolean;
  signal?: AbortSignal;
}

/** How a child ended. */
export interface CommandStatus {
  success: boolean;
  code: number;
  signal: Signal | null;
}

/** A finished child's status and captured output. */
export interface CommandOutput extends CommandStatus {
  readonly stdout: Uint8Array;
  readonly stderr: Uint8Array;
}

/** A running child process. */
export interface ChildProcess {
  readonly pid: number;
  readonly stdin: WritableStream<Uint8Array>;
  readonly stdout: ReadableStream<Uint8Array>;
  readonly stderr: ReadableStream<Uint8Array>;
  readonly status: Promise<CommandStatus>;
  output(): Promise<CommandOutput>;
  kill(signal?: Signal): void;
  ref(): void;
  unref(): void;
}

/** A command ready to run. */
export interface Command {
  spawn(): ChildProcess;
  output(): Promise<CommandOutput>;
  outputSync(): CommandOutput;
}

/** A permission the second gate can be asked about. */
export type PermissionDescriptor = Deno.PermissionDescriptor;

/** The state of a permission. */
export interface PermissionStatus {
  readonly state: "granted" | "denied" | "prompt";
}

/**
 * The runtime's permissions: Deno's under Deno; under Bun and Node there is
 * no second gate, and every query answers "granted".
 */
export interface Permissions {
  query(descriptor: PermissionDescriptor): Promise<PermissionStatus>;
  querySync(descriptor: PermissionDescriptor): PermissionStatus;
  request(descriptor: PermissionDescriptor): Promise<PermissionStatus>;
}

/** The standard input. */
export interface Stdin {
  readonly readable: ReadableStream<Uint8Array>;
  isTerminal(): boolean;
  /**
   * Puts a terminal in raw mode (keys arrive one by one, unechoed, Ctrl-C as
   * a byte) or back; throws when stdin is not a terminal.
   */
  setRaw(mode: boolean): void;
}

/** The standard output or error. */
export interface Stdout {
  readonly writable: WritableStream<Uint8Array>;
  write(p: Uint8Array): Promise<number>;
  writeSync(p: Uint8Array): number;
  isTerminal(): boolean;
}

/** Everything the package asks of the runtime. */
export interface Runtime {
  readonly name: RuntimeName;
  readonly build: {
    readonly os: typeof Deno.build.os;
    readonly arch: typeof Deno.build.arch;
  };
  readonly pid: number;
  /** The code the process exits with unless told otherwise. */
  readonly exitCode: number;
  readonly args: string[];
  readonly env: { get(name: string): string | undefined };
  readonly permissions: Permissions;
  readonly stdin: Stdin;
  readonly stdout: Stdout;
  readonly stderr: Stdout;
  readonly SeekMode: typeof SeekMode;
  cwd(): string;
  chdir(path: string): void;
  exit(code?: number): never;
  consoleSize(): { columns: number; rows: number };
  addSignalListener(signal: Signal, handler: () => void): void;
  removeSignalListener(signal: Signal, handler: () => void): void;
  kill(pid: number, signal?: Signal): void;
  /** Lets the process exit while the timer is pending. */
  unrefTimer(timer: Parameters<typeof Deno.unrefTimer>[0]): void;
  /**
   * The CPU time the whole process has used so far, all its threads, user
   * and system, in milliseconds (Node's `process.cpuUsage()`); undefined
   * where the runtime does not tell.
   */
  cpuTimeMs(): number | undefined;

  stat(path: string): Promise<FileInfo>;
  statSync(path: string): FileInfo;
  lstat(path: string): Promise<FileInfo>;
  lstatSync(path: string): FileInfo;
  readLinkSync(path: string): string;
  realPath(path: string): Promise<string>;
  readDir(path: string): AsyncIterable<DirEntry>;
  readDirSync(path: string): Iterable<DirEntry>;
  readFile(path: string): Promise<Uint8Array<ArrayBuffer>>;
  readTextFile(path: string): Promise<string>;
  writeTextFile(path: string, data: string): Promise<void>;
  mkdir(
    path: string,
    options?: { recursive?: boolean; mode?: number },
  ): Promise<void>;
  remove(path: string, options?: { recursive?: boolean }): Promise<void>;
  removeSync(path: string, options?: { recursive?: boolean }): void;
  rename(from: string, to: string): Promise<void>;
  renameSync(from: string, to: string): void;
  chmod(path: string, mode: number): Promise<void>;
  open(path: string, options?: OpenOptions): Promise<FsFile>;
  openSync(path: string, options?: OpenOptions): FsFile;
  makeTempDir(options?: MakeTempOptions): Promise<string>;
  makeTempFileSync(options?: MakeTempOptions): string;
  command(command: string, options?: CommandOptions): Command;

  /** The kind of `error`, if it is one the runtime raises. */
  errorKind(error: unknown): ErrorKind | undefined;
  /** A new error of `kind`, of the class the runtime itself would throw. */
  newError(kind: ErrorKind, message: string, options?: ErrorOptions): Error;
}
