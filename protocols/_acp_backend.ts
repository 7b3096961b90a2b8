// The file and process backends over an ACP client: files through
// fs/read_text_file and fs/write_text_file (so the agent sees unsaved editor
// buffers), commands through terminal/create (so they run in the editor's
// terminals). The tools use them without knowing.
import type * as acp from "@agentclientprotocol/sdk";
import type {
  FileBackend,
  FileStat,
  ProcessBackend,
  RandomAccessFile,
  ShellRequest,
  ShellResult,
} from "../tools/types.ts";
import { memoryFile } from "../tools/read_at.ts";
import { isError, runtime } from "../internal/runtime/runtime.ts";

/** How long a text read by stat() serves the open() that follows. */
const RECENT_MS = 1000;
/**
 * Files larger than this on disk are read from disk: the client answers
 * with the whole text in one message, and a huge one (past the SDK's 32 MiB
 * limit) would end the connection. An unsaved buffer that large is rare.
 */
const CLIENT_READ_MAX_BYTES = 4 * 1024 * 1024;

/** Options for {@linkcode createAcpFiles}. */
export interface AcpFilesOptions {
  client: acp.AgentContext;
  sessionId: string;
  /** The client advertised `fs.readTextFile`. */
  read: boolean;
  /** The client advertised `fs.writeTextFile`. */
  write: boolean;
  /** Used for what the client cannot do: folders, missing files, stat details. */
  local: FileBackend;
}

/**
 * A FileBackend that reads and writes through the client where it can. ACP
 * has no stat: a file's size is that of the text the client answers, and a
 * path the client cannot read is described by the local disk (a folder, or
 * missing).
 */
export function createAcpFiles(options: AcpFilesOptions): FileBackend {
  const { client, sessionId, local } = options;
  // stat() reads the text; the open() right after uses it instead of reading
  // twice. Kept briefly, so a later open() sees the editor's newer text.
  const recent = new Map<string, { bytes: Uint8Array; at: number }>();
  const takeRecent = (path: string): Uint8Array | undefined => {
    const entry = recent.get(path);
    recent.delete(path);
    return entry && Date.now() - entry.at < RECENT_MS ? entry.bytes : undefined;
  };

  async function readThroughClient(path: string): Promise<Uint8Array | null> {
    if (!options.read || await largeOnDisk(local, path)) return null;
    try {
      const { content } = await client.request("fs/read_text_file", {
        sessionId,
        path,
      });
      return new TextEncoder().encode(content);
    } catch {
      // A folder, a missing file or a refusal: let the local disk describe it.
      return null;
    }
  }

  return {
    async stat(path: string): Promise<FileStat> {
      const bytes = await readThroughClient(path);
      if (bytes === null) return await local.stat(path);
      recent.set(path, { bytes, at: Date.now() });
      return { kind: "file", size: bytes.length, mtimeMs: null, mode: null };
    },
    async open(path: string): Promise<RandomAccessFile> {
      const bytes = takeRecent(path) ?? await readThroughClient(path);
      return bytes === null ? await local.open(path) : memoryFile(bytes);
    },
    readDir: (path: string): Promise<string[]> => local.readDir(path),
    async writeFile(path: string, data: Uint8Array): Promise<void> {
      recent.delete(path);
      if (!options.write) return await local.writeFile(path, data);
      await client.request("fs/write_text_file", {
        sessionId,
        path,
        content: new TextDecoder().decode(data),
      });
    },
  };
}

/** Whether `path` is a file on disk over CLIENT_READ_MAX_BYTES. */
async function largeOnDisk(local: FileBackend, path: string): Promise<boolean> {
  try {
    const stat = await local.stat(path);
    return stat.kind === "file" && stat.size > CLIENT_READ_MAX_BYTES;
  } catch {
    return false; // missing on disk (a new buffer?) or not for us to see
  }
}

/** Options for {@linkcode createAcpProcesses}. */
export interface AcpProcessesOptions {
  client: acp.AgentContext;
  sessionId: string;
  /** Told about each terminal as soon as it exists, to show it in its tool call. */
  onTerminal?: (request: ShellRequest, terminalId: string) => void;
}

/**
 * A ProcessBackend that runs commands in the client's terminals. A command
 * line without `args` runs through `sh -c`, as it does locally. Timeout and
 * abort kill the terminal's command; the terminal is released at the end.
 */
export function createAcpProcesses(
  options: AcpProcessesOptions,
): ProcessBackend {
  return {
    async run(
      request: ShellRequest,
      signal?: AbortSignal,
    ): Promise<ShellResult> {
      signal?.throwIfAborted();
      const terminal = await options.client.createTerminal({
        sessionId: options.sessionId,
        command: request.args === undefined ? "sh" : request.command,
        args: request.args ?? ["-c", request.command],
        env: Object.entries(request.env ?? {}).map(([name, value]) => ({
          name,
          value,
        })),
        cwd: request.cwd,
        outputByteLimit: request.outputByteLimit,
      });
      try {
        options.onTerminal?.(request, terminal.id);
        const ending = await waitForEnd(terminal, request, signal);
        const { output, truncated, exitStatus } = await terminal
          .currentOutput();
        const exit = exitStatus ?? ending.exit;
        return {
          exitCode: exit?.exitCode ?? null,
          signal: exit?.signal ?? null,
          timedOut: ending.reason === "timeout",
          truncated,
          output,
          ...(ending.reason === "abort" ? { aborted: true } : {}),
        };
      } finally {
        await terminal.release().catch(() => {});
      }
    },
  };
}

interface Ending {
  reason: "exit" | "timeout" | "abort";
  exit?: { exitCode?: number | null; signal?: string | null };
}

/** Waits for the command's exit, its timeout or the abort, killing it for the last two. */
async function waitForEnd(
  terminal: acp.TerminalHandle,
  request: ShellRequest,
  signal?: AbortSignal,
): Promise<Ending> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<Ending>((resolve) => {
    if (request.timeoutSeconds !== undefined) {
      timer = setTimeout(
        () => resolve({ reason: "timeout" }),
        request.timeoutSeconds * 1000,
      );
    }
    onAbort = () => resolve({ reason: "abort" });
    signal?.addEventListener("abort", onAbort, { once: true });
  });
  const exited = terminal.waitForExit().then((exit): Ending => ({
    reason: "exit",
    exit,
  }));
  try {
    const ending = await Promise.race([exited, stopped]);
    if (ending.reason !== "exit") {
      await terminal.kill().catch(() => {});
      // The exit status after the kill, when the client reports it quickly.
      const exit = await Promise.race([
        exited.then((e) => e.exit),
        delay(2000),
      ]);
      return { ...ending, exit: exit ?? undefined };
    }
    return ending;
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener("abort", onAbort);
  }
}

function delay(ms: number): Promise<undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    runtime.unrefTimer(timer);
  });
}

/** A file write as the diff of the tool call that made it. */
export interface WrittenFile {
  path: string;
  /**
   * The whole text before; null for a new file; undefined for one that
   * existed but was too large (or could not be read) to show.
   */
  oldText: string | null | undefined;
  newText: string;
}

/** Files larger than this get no "before" text in their diff. */
const DIFF_LIMIT_BYTES = 1024 * 1024;

/**
 * Wraps a FileBackend so every write reports the file's text before and after,
 * which becomes the tool call's diff in the editor.
 */
export function recordWrites(
  files: FileBackend,
  onWrite: (write: WrittenFile) => void,
): FileBackend {
  return {
    stat: (path) => files.stat(path),
    open: (path) => files.open(path),
    readDir: (path) => files.readDir(path),
    async writeFile(path: string, data: Uint8Array): Promise<void> {
      const oldText = await readText(files, path);
      await files.writeFile(path, data);
      onWrite({ path, oldText, newText: new TextDecoder().decode(data) });
    },
  };
}

/**
 * A file's whole text as a diff shows it: null when it does not exist,
 * undefined when it is too large (over 1 MiB) or cannot be read.
 */
export async function readText(
  files: FileBackend,
  path: string,
): Promise<string | null | undefined> {
  let stat;
  try {
    stat = await files.stat(path);
  } catch (error) {
    return isError(error, "notFound") ? null : undefined;
  }
  try {
    if (stat.kind !== "file" || stat.size > DIFF_LIMIT_BYTES) return undefined;
    const file = await files.open(path);
    try {
      const bytes = new Uint8Array(stat.size);
      let filled = 0;
      while (filled < bytes.length) {
        const read = await file.read(bytes.subarray(filled), filled);
        if (read === 0) break;
        filled += read;
      }
      return new TextDecoder().decode(bytes.subarray(0, filled));
    } finally {
      file.close();
    }
  } catch {
    return undefined;
  }
}
