// The facade under Bun and Node: Deno's shapes built on node: modules. There
// is no second gate here: every permission query answers "granted", and the
// permission mode is the only gate.
import * as fs from "node:fs";
import * as fsp from "node:fs/promises";
import { spawn, spawnSync } from "node:child_process";
import { constants, tmpdir } from "node:os";
import { delimiter, isAbsolute, join, resolve } from "node:path";
import { type Readable, Writable } from "node:stream";
import process from "node:process";
import type {
  ChildProcess,
  Command,
  CommandOptions,
  CommandStatus,
  DirEntry,
  ErrorKind,
  FileInfo,
  FsFile,
  MakeTempOptions,
  OpenOptions,
  PermissionStatus,
  Runtime,
  Signal,
  Stdin,
  Stdout,
} from "./types.ts";

const CODES: Record<string, ErrorKind> = {
  ENOENT: "notFound",
  EEXIST: "alreadyExists",
  EACCES: "permissionDenied",
  EPERM: "permissionDenied",
  EISDIR: "isADirectory",
  ENOTDIR: "notADirectory",
  EPIPE: "brokenPipe",
};

const NAMES: Record<ErrorKind, string> = {
  notFound: "NotFound",
  alreadyExists: "AlreadyExists",
  permissionDenied: "PermissionDenied",
  notCapable: "NotCapable",
  isADirectory: "IsADirectory",
  notADirectory: "NotADirectory",
  brokenPipe: "BrokenPipe",
};

const KIND_OF_NAME = Object.fromEntries(
  Object.entries(NAMES).map(([kind, name]) => [name, kind as ErrorKind]),
);

const GRANTED: PermissionStatus = Object.freeze({ state: "granted" });

/** The facade over node: modules, for Bun and Node. */
export function nodeRuntime(): Runtime {
  const isBun = "Bun" in globalThis;
  return {
    name: isBun ? "bun" : "node",
    build: { os: osName(), arch: archName() },
    pid: process.pid,
    get exitCode() {
      return Number(process.exitCode ?? 0);
    },
    args: process.argv.slice(2),
    env: { get: (name) => process.env[name] },
    permissions: {
      query: () => Promise.resolve(GRANTED),
      querySync: () => GRANTED,
      request: () => Promise.resolve(GRANTED),
    },
    stdin: stdin(),
    stdout: output(process.stdout, 1),
    stderr: output(process.stderr, 2),
    SeekMode: { Start: 0, Current: 1, End: 2 },
    cwd: () => process.cwd(),
    chdir: (path) => process.chdir(path),
    exit: (code) => process.exit(code),
    consoleSize: () => ({
      columns: process.stdout.columns ?? process.stderr.columns ?? 80,
      rows: process.stdout.rows ?? process.stderr.rows ?? 24,
    }),
    addSignalListener: (signal, handler) => void process.on(signal, handler),
    removeSignalListener: (signal, handler) =>
      void process.off(signal, handler),
    kill: (pid, signal = "SIGTERM") =>
      void process.kill(pid, signal as NodeJS.Signals),
    unrefTimer(timer) {
      (timer as unknown as { unref?(): void }).unref?.();
    },
    cpuTimeMs() {
      const usage = process.cpuUsage();
      return (usage.user + usage.system) / 1000;
    },
    stat: (path) => wrap(fsp.stat(path).then(info)),
    statSync: (path) => wrapSync(() => info(fs.statSync(path))),
    lstat: (path) => wrap(fsp.lstat(path).then(info)),
    lstatSync: (path) => wrapSync(() => info(fs.lstatSync(path))),
    readLinkSync: (path) => wrapSync(() => fs.readlinkSync(path)),
    realPath: (path) => wrap(fsp.realpath(path)),
    readDir: (path) => readDir(path),
    readDirSync: (path) =>
      wrapSync(() => fs.readdirSync(path, { withFileTypes: true }).map(entry)),
    readFile: (path) =>
      wrap(fsp.readFile(path).then((buffer) => new Uint8Array(buffer))),
    readTextFile: (path) => wrap(fsp.readFile(path, "utf8")),
    writeTextFile: (path, data) => wrap(fsp.writeFile(path, data)),
    mkdir: (path, options) => wrap(fsp.mkdir(path, options).then(() => {})),
    remove: (path, options) => wrap(remove(path, options?.recursive)),
    removeSync: (path, options) =>
      wrapSync(() => {
        if (fs.statSync(path, { throwIfNoEntry: false })?.isDirectory()) {
          fs.rmSync(path, { recursive: options?.recursive ?? false });
          if (!options?.recursive) fs.rmdirSync(path);
        } else fs.unlinkSync(path);
      }),
    rename: (from, to) => wrap(fsp.rename(from, to)),
    renameSync: (from, to) => wrapSync(() => fs.renameSync(from, to)),
    chmod: (path, mode) => wrap(fsp.chmod(path, mode)),
    open: (path, options) =>
      new Promise<FsFile>((done, fail) =>
        fs.open(
          path,
          openFlags(options),
          options?.mode,
          (error, fd) =>
            error ? fail(classify(error)) : done(new NodeFile(path, fd)),
        )
      ),
    openSync: (path, options) =>
      new NodeFile(
        path,
        wrapSync(() => fs.openSync(path, openFlags(options), options?.mode)),
      ),
    makeTempDir: (options) =>
      wrap(fsp.mkdtemp(join(options?.dir ?? tmpdir(), options?.prefix ?? "")))
        .then(async (path) => {
          if (!options?.suffix) return path;
          await fsp.rename(path, path + options.suffix);
          return path + options.suffix;
        }),
    makeTempFileSync: (options) => makeTempFileSync(options),
    command: (command, options) => nodeCommand(command, options ?? {}),
    errorKind,
    newError(kind, message, options) {
      const error = new Error(message, options);
      error.name = NAMES[kind];
      return error;
    },
  };
}

function osName(): Runtime["build"]["os"] {
  switch (process.platform) {
    case "win32":
      return "windows";
    case "sunos":
      return "solaris";
    default:
      return process.platform as Runtime["build"]["os"];
  }
}

function archName(): Runtime["build"]["arch"] {
  return process.arch === "arm64" ? "aarch64" : "x86_64";
}

function errorKind(error: unknown): ErrorKind | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && code in CODES) return CODES[code];
  return KIND_OF_NAME[error.name];
}

// Node's errors, renamed as Deno names them, so messages and kinds agree.
function classify(error: unknown): unknown {
  const kind = errorKind(error);
  if (kind !== undefined && error instanceof Error) error.name = NAMES[kind];
  return error;
}

function wrap<T>(promise: Promise<T>): Promise<T> {
  return promise.catch((error) => {
    throw classify(error);
  });
}

function wrapSync<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw classify(error);
  }
}

function info(stats: fs.Stats): FileInfo {
  return {
    isFile: stats.isFile(),
    isDirectory: stats.isDirectory(),
    isSymlink: stats.isSymbolicLink(),
    size: stats.size,
    mtime: stats.mtime,
    atime: stats.atime,
    birthtime: stats.birthtime,
    ctime: stats.ctime,
    dev: stats.dev,
    ino: stats.ino,
    mode: stats.mode,
    nlink: stats.nlink,
    uid: stats.uid,
    gid: stats.gid,
    rdev: stats.rdev,
    blksize: stats.blksize,
    blocks: stats.blocks,
  };
}

function entry(dirent: fs.Dirent): DirEntry {
  return {
    name: dirent.name,
    isFile: dirent.isFile(),
    isDirectory: dirent.isDirectory(),
    isSymlink: dirent.isSymbolicLink(),
  };
}

async function* readDir(path: string): AsyncIterable<DirEntry> {
  const dir = await wrap(fsp.opendir(path));
  try {
    for await (const dirent of dir) yield entry(dirent);
  } catch (error) {
    throw classify(error);
  }
}

async function remove(path: string, recursive = false): Promise<void> {
  const stats = await fsp.lstat(path);
  if (!stats.isDirectory()) return await fsp.unlink(path);
  if (recursive) return await fsp.rm(path, { recursive: true });
  await fsp.rmdir(path);
}

function openFlags(options: OpenOptions = { read: true }): number {
  const { O_RDONLY, O_WRONLY, O_RDWR, O_CREAT, O_EXCL, O_TRUNC, O_APPEND } =
    fs.constants;
  const writes = options.write || options.append;
  let flags = options.read && writes ? O_RDWR : writes ? O_WRONLY : O_RDONLY;
  if (options.append) flags |= O_APPEND;
  if (options.truncate) flags |= O_TRUNC;
  if (options.createNew) flags |= O_CREAT | O_EXCL;
  else if (options.create) flags |= O_CREAT;
  return flags;
}

function makeTempFileSync(options: MakeTempOptions = {}): string {
  for (;;) {
    const name = `${options.prefix ?? ""}${
      Math.random().toString(36).slice(2, 10)
    }${options.suffix ?? ""}`;
    const path = join(options.dir ?? tmpdir(), name);
    try {
      fs.closeSync(fs.openSync(path, "wx", 0o600));
      return path;
    } catch (error) {
      if (errorKind(error) !== "alreadyExists") throw classify(error);
    }
  }
}

// The files this process holds a lock on: Node and Bun have no flock call,
// so a lock keeps out the other holders in this process only.
const locked = new Set<string>();

class NodeFile implements FsFile {
  #path: string;
  #fd: number;
  #position = 0;
  #lockKey: string | undefined;

  constructor(path: string, fd: number) {
    this.#path = resolve(path);
    this.#fd = fd;
  }

  read(p: Uint8Array): Promise<number | null> {
    return new Promise((done, fail) => {
      fs.read(this.#fd, p, 0, p.length, this.#position, (error, n) => {
        if (error) return fail(classify(error));
        this.#position += n;
        done(n === 0 && p.length > 0 ? null : n);
      });
    });
  }

  readSync(p: Uint8Array): number | null {
    const n = wrapSync(() =>
      fs.readSync(this.#fd, p, 0, p.length, this.#position)
    );
    this.#position += n;
    return n === 0 && p.length > 0 ? null : n;
  }

  write(p: Uint8Array): Promise<number> {
    return new Promise((done, fail) => {
      fs.write(this.#fd, p, 0, p.length, this.#position, (error, n) => {
        if (error) return fail(classify(error));
        this.#position += n;
        done(n);
      });
    });
  }

  writeSync(p: Uint8Array): number {
    const n = wrapSync(() =>
      fs.writeSync(this.#fd, p, 0, p.length, this.#position)
    );
    this.#position += n;
    return n;
  }

  async seek(offset: number, whence: 0 | 1 | 2): Promise<number> {
    const base = whence === 0
      ? 0
      : whence === 1
      ? this.#position
      : (await this.stat()).size;
    this.#position = base + offset;
    return this.#position;
  }

  seekSync(offset: number, whence: 0 | 1 | 2): number {
    const base = whence === 0
      ? 0
      : whence === 1
      ? this.#position
      : this.statSync().size;
    this.#position = base + offset;
    return this.#position;
  }

  truncate(len = 0): Promise<void> {
    return wrap(
      new Promise<void>((done, fail) =>
        fs.ftruncate(this.#fd, len, (error) => error ? fail(error) : done())
      ),
    );
  }

  syncData(): Promise<void> {
    return wrap(
      new Promise<void>((done, fail) =>
        fs.fdatasync(this.#fd, (error) => error ? fail(error) : done())
      ),
    );
  }

  stat(): Promise<FileInfo> {
    return wrap(
      new Promise<FileInfo>((done, fail) =>
        fs.fstat(
          this.#fd,
          (error, stats) => error ? fail(error) : done(info(stats)),
        )
      ),
    );
  }

  statSync(): FileInfo {
    return wrapSync(() => info(fs.fstatSync(this.#fd)));
  }

  tryLock(): Promise<boolean> {
    if (this.#lockKey !== undefined) return Promise.resolve(true);
    if (locked.has(this.#path)) return Promise.resolve(false);
    locked.add(this.#path);
    this.#lockKey = this.#path;
    return Promise.resolve(true);
  }

  async lock(): Promise<void> {
    while (!(await this.tryLock())) {
      await new Promise((done) => setTimeout(done, 10));
    }
  }

  close(): void {
    if (this.#lockKey !== undefined) locked.delete(this.#lockKey);
    this.#lockKey = undefined;
    wrapSync(() => fs.closeSync(this.#fd));
  }

  [Symbol.dispose](): void {
    this.close();
  }
}

// A byte stream, as Deno's are (callers read them with BYOB readers), over a
// Node stream; the chunks are copied out of Node's shared buffer pool.
function byteStream(stream: Readable): ReadableStream<Uint8Array> {
  return new ReadableStream({
    type: "bytes",
    start(controller) {
      stream.on("data", (chunk: Uint8Array) => {
        controller.enqueue(new Uint8Array(chunk));
        if ((controller.desiredSize ?? 1) <= 0) stream.pause();
      });
      stream.once("end", () => {
        controller.close();
        controller.byobRequest?.respond(0);
      });
      stream.once("error", (error) => controller.error(classify(error)));
    },
    pull() {
      stream.resume();
    },
    cancel() {
      stream.destroy();
    },
  });
}

function stdin(): Stdin {
  let readable: ReadableStream<Uint8Array> | undefined;
  return {
    get readable() {
      readable ??= byteStream(process.stdin);
      return readable;
    },
    isTerminal: () => process.stdin.isTTY === true,
    setRaw(mode) {
      if (process.stdin.isTTY !== true) {
        throw new Error("Cannot set raw mode: stdin is not a terminal");
      }
      process.stdin.setRawMode(mode);
    },
  };
}

function output(stream: NodeJS.WriteStream, fd: number): Stdout {
  let writable: WritableStream<Uint8Array> | undefined;
  return {
    get writable() {
      writable ??= Writable.toWeb(stream) as WritableStream<Uint8Array>;
      return writable;
    },
    write: (p) =>
      new Promise((done, fail) =>
        stream.write(
          p,
          (error) => error ? fail(classify(error)) : done(p.length),
        )
      ),
    writeSync: (p) => wrapSync(() => fs.writeSync(fd, p)),
    isTerminal: () => stream.isTTY === true,
  };
}

// Deno's spawn throws at once for a missing or non-executable program;
// Node's reports it later, as an event: look it up first.
function checkExecutable(command: string, options: CommandOptions): void {
  const cwd = options.cwd ?? process.cwd();
  const candidates = command.includes("/")
    ? [isAbsolute(command) ? command : resolve(cwd, command)]
    : (options.env?.PATH ?? process.env.PATH ?? "").split(delimiter)
      .filter((dir) => dir !== "").map((dir) =>
        join(resolve(cwd, dir), command)
      );
  let denied = false;
  for (const path of candidates) {
    try {
      if (!fs.statSync(path).isFile()) continue;
      fs.accessSync(path, fs.constants.X_OK);
      return;
    } catch (error) {
      if (errorKind(error) === "permissionDenied") denied = true;
    }
  }
  const error = new Error(
    denied
      ? `Permission denied (os error 13): "${command}"`
      : `Failed to spawn '${command}': No such file or directory (os error 2)`,
  );
  error.name = denied ? NAMES.permissionDenied : NAMES.notFound;
  throw error;
}

function stdio(value: CommandOptions["stdin"], fallback: "pipe" | "inherit") {
  if (value === undefined) return fallback;
  return value === "piped" ? "pipe" : value === "null" ? "ignore" : "inherit";
}

function nodeOptions(options: CommandOptions, outputs: "pipe" | "inherit") {
  return {
    cwd: options.cwd,
    env: options.clearEnv
      ? { ...options.env }
      : { ...process.env, ...options.env },
    stdio: [
      stdio(options.stdin, "inherit"),
      stdio(options.stdout, outputs),
      stdio(options.stderr, outputs),
    ] as ("pipe" | "ignore" | "inherit")[],
    detached: options.detached ?? false,
    signal: options.signal,
  };
}

function statusOf(code: number | null, signal: string | null): CommandStatus {
  const number = signal === null
    ? 0
    : constants.signals[signal as keyof typeof constants.signals] ?? 0;
  const exit = code ?? 128 + number;
  return { success: exit === 0, code: exit, signal: signal as Signal | null };
}

const EMPTY = new Uint8Array(0);

function nodeCommand(command: string, options: CommandOptions): Command {
  const args = options.args ?? [];
  return {
    spawn: () => spawnChild(command, args, options),
    output: () => spawnChild(command, args, options, "pipe").output(),
    outputSync() {
      checkExecutable(command, options);
      const result = spawnSync(command, args, nodeOptions(options, "pipe"));
      if (result.error) throw classify(result.error);
      const status = statusOf(result.status, result.signal);
      return {
        ...status,
        stdout: result.stdout ? new Uint8Array(result.stdout) : EMPTY,
        stderr: result.stderr ? new Uint8Array(result.stderr) : EMPTY,
      };
    },
  };
}

function spawnChild(
  command: string,
  args: string[],
  options: CommandOptions,
  outputs: "pipe" | "inherit" = "inherit",
): ChildProcess {
  checkExecutable(command, options);
  const child = spawn(command, args, nodeOptions(options, outputs));
  const status = new Promise<CommandStatus>((done, fail) => {
    child.once("error", (error) => fail(classify(error)));
    child.once("close", (code, signal) => done(statusOf(code, signal)));
  });
  // Nothing awaits the status when the caller only reads the streams.
  status.catch(() => {});
  const stream = <T>(
    value: T | null,
    name: string,
  ): T => {
    if (value === null) {
      return new Proxy({}, {
        get() {
          throw new TypeError(`${name} is not piped`);
        },
      }) as T;
    }
    return value;
  };
  const stdoutStream = child.stdout && byteStream(child.stdout);
  const stderrStream = child.stderr && byteStream(child.stderr);
  const stdinStream = child.stdin &&
    (Writable.toWeb(child.stdin) as WritableStream<Uint8Array>);
  return {
    pid: child.pid ?? 0,
    stdin: stream(stdinStream, "stdin"),
    stdout: stream(stdoutStream, "stdout"),
    stderr: stream(stderrStream, "stderr"),
    status,
    async output() {
      const [stdout, stderr, result] = await Promise.all([
        stdoutStream ? new Response(stdoutStream).bytes() : EMPTY,
        stderrStream ? new Response(stderrStream).bytes() : EMPTY,
        status,
      ]);
      return { ...result, stdout, stderr };
    },
    kill(signal = "SIGTERM") {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new TypeError("Child process has already terminated");
      }
      child.kill(signal as NodeJS.Signals);
    },
    ref: () => child.ref(),
    unref: () => child.unref(),
  };
}
