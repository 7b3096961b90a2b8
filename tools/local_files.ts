// The local disk as a FileBackend. Every operation first asks Deno's
// permission for its exact path (the second gate), so a missing grant becomes a
// clear ToolError. Writes are atomic: a temp file in the same folder, flushed
// and renamed over the target, so a crash leaves the old or the new file,
// never a mix.
import { basename, dirname, join } from "node:path";
import {
  granted,
  requireDenoPermission,
  requireRealGrant as requireGrant,
} from "../internal/deno_permission.ts";
import { ToolError } from "../internal/tool_error.ts";
import type { FileBackend, FileStat, RandomAccessFile } from "./types.ts";
import { isError, runtime, runtimeError } from "../internal/runtime/runtime.ts";
import type { FileInfo, FsFile } from "../internal/runtime/runtime.ts";

/** Marks temp files of an atomic write: `.<name>.fello-tmp-<pid>-<random>`. */
export const TEMP_MARK = ".fello-tmp-";
const TEMP_PATTERN = /^\.(.+)\.fello-tmp-(\d+)-[0-9a-z]+$/;
/** A temp file of another, unidentifiable writer is stale after this long. */
const STALE_TEMP_MS = 15 * 60 * 1000;

/** Temp files this process is writing right now (never cleaned up from under it). */
const inFlight = new Set<string>();

/**
 * The local disk as a {@linkcode FileBackend}, checking Deno's permissions
 * before each operation: the backend `createTools()` uses by default, to wrap
 * or to fall back to.
 *
 * Requires `--allow-read` and `--allow-write` for the paths it is given.
 *
 * @example Log every write the tools make
 * ```ts
 * import { createLocalFiles, createTools } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const disk = createLocalFiles();
 * const writes: string[] = [];
 * const tools = createTools({
 *   cwd: await Deno.makeTempDir(),
 *   permissionMode: "acceptEdits",
 *   backend: {
 *     files: {
 *       ...disk,
 *       writeFile(path, data) {
 *         writes.push(`writing ${data.length} bytes to ${path}`);
 *         return disk.writeFile(path, data);
 *       },
 *     },
 *   },
 * });
 * await tools.WriteFile.execute({ path: "a.txt", content: "hello\n" });
 * assert.match(writes[0], /^writing 6 bytes to .*a\.txt$/);
 * ```
 */
export function createLocalFiles(): FileBackend {
  return { stat, open, readDir, writeFile };
}

async function stat(path: string): Promise<FileStat> {
  await requireGrant("read", path);
  const info = await runtime.stat(path);
  return {
    kind: info.isFile ? "file" : info.isDirectory ? "directory" : "other",
    size: info.size,
    mtimeMs: info.mtime?.getTime() ?? null,
    mode: info.mode,
    changeMs: info.ctime?.getTime() ?? null,
  };
}

async function open(path: string): Promise<RandomAccessFile> {
  await requireGrant("read", path);
  const file = await runtime.open(path, { read: true });
  return new LocalFile(file);
}

async function readDir(path: string): Promise<string[]> {
  await requireGrant("read", path);
  const names: string[] = [];
  for await (const entry of runtime.readDir(path)) names.push(entry.name);
  return names;
}

/** Positioned reads over one handle; seeks only when a read is not sequential. */
class LocalFile implements RandomAccessFile {
  #file: FsFile;
  #position = 0;
  #closed = false;

  constructor(file: FsFile) {
    this.#file = file;
  }

  async read(buffer: Uint8Array, position: number): Promise<number> {
    if (position !== this.#position) {
      await this.#file.seek(position, runtime.SeekMode.Start);
      this.#position = position;
    }
    const n = (await this.#file.read(buffer)) ?? 0;
    this.#position += n;
    return n;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#file.close();
  }
}

async function writeFile(path: string, data: Uint8Array): Promise<void> {
  // The folder first: a grant for the file alone cannot hold the temp file,
  // and a denial naming the file would only lead to a second one.
  await requireFolderGrant(path);
  // A symlink's target is replaced: its folder needs the grant too.
  const target = await writeTarget(path);
  if (target !== path) await requireFolderGrant(target);
  await requireGrant("write", path);
  const folder = dirname(target);
  await ensureFolder(folder);
  const mode = await existingMode(target);
  const temp = join(folder, tempName(basename(target)));
  inFlight.add(temp);
  try {
    await writeTemp(temp, data, mode);
    await runtime.rename(temp, target);
  } catch (error) {
    await runtime.remove(temp).catch(() => {});
    throw error;
  } finally {
    inFlight.delete(temp);
  }
  await removeOrphans(folder);
}

/** Writing through a symlink replaces its target, not the link itself. */
async function writeTarget(path: string): Promise<string> {
  // Without read access the link cannot be seen: write the path itself.
  if (!(await granted({ name: "read", path }))) return path;
  let info: FileInfo;
  try {
    info = await runtime.lstat(path);
  } catch {
    return path; // missing (or unreadable): write the path itself
  }
  if (!info.isSymlink) return path;
  return await runtime.realPath(path).catch(() => path);
}

async function ensureFolder(folder: string): Promise<void> {
  try {
    await runtime.mkdir(folder, { recursive: true });
  } catch (error) {
    if (isError(error, "alreadyExists")) {
      throw runtimeError(
        "notADirectory",
        `"${folder}" is a file, not a folder`,
      );
    }
    throw error;
  }
}

async function existingMode(path: string): Promise<number | null> {
  if (!(await granted({ name: "read", path }))) return null;
  try {
    return (await runtime.stat(path)).mode;
  } catch {
    return null;
  }
}

function tempName(name: string): string {
  const random = crypto.getRandomValues(new Uint32Array(2));
  const suffix = Array.from(random, (n) => n.toString(36)).join("");
  return `.${
    clipBytes(name, TEMP_NAME_BYTES)
  }${TEMP_MARK}${runtime.pid}-${suffix}`;
}

/**
 * How much of the file's name its temp file keeps: with the mark, pid and
 * suffix it stays under the 255-byte limit of a file name.
 */
const TEMP_NAME_BYTES = 200;

function clipBytes(name: string, max: number): string {
  const encoder = new TextEncoder();
  if (encoder.encode(name).length <= max) return name;
  let clipped = "";
  for (const char of name) {
    if (encoder.encode(clipped + char).length > max) break;
    clipped += char;
  }
  return clipped;
}

// The temp file lives in the folder, and Deno lets a rename happen only with
// read and write access to both of its paths.
async function requireFolderGrant(path: string): Promise<void> {
  const folder = dirname(path);
  try {
    await requireDenoPermission({ name: "write", path: folder });
    await requireDenoPermission({ name: "read", path: folder });
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    throw new ToolError(
      `Deno denies writing "${path}": an atomic write renames a temp file in its folder, which needs read and write access there, so run deno again with --allow-read=${folder} --allow-write=${folder} (or a parent folder)`,
    );
  }
}

async function writeTemp(
  temp: string,
  data: Uint8Array,
  mode: number | null,
): Promise<void> {
  const file = await runtime.open(temp, { write: true, createNew: true });
  try {
    if (mode !== null && runtime.build.os !== "windows") {
      await runtime.chmod(temp, mode & 0o7777);
    }
    let written = 0;
    while (written < data.length) {
      written += await file.write(data.subarray(written));
    }
    // On disk before the rename: after a crash or power loss the file is
    // the old one or the new one, never a renamed empty or partial one.
    await file.syncData();
  } finally {
    file.close();
  }
}

/**
 * Removes temp files left in `folder` by writers that died mid-write: those of
 * a process that no longer runs or, when that cannot be told, old ones.
 * Best effort: a failure here never fails the write that triggered it.
 */
async function removeOrphans(folder: string): Promise<void> {
  try {
    if (!(await granted({ name: "read", path: folder }))) return;
    for await (const entry of runtime.readDir(folder)) {
      const match = TEMP_PATTERN.exec(entry.name);
      if (!match || !entry.isFile) continue;
      const temp = join(folder, entry.name);
      if (inFlight.has(temp)) continue;
      if (await isOrphan(temp, Number(match[2]))) {
        await runtime.remove(temp).catch(() => {});
      }
    }
  } catch {
    // Cleanup is a courtesy; the write itself succeeded.
  }
}

async function isOrphan(temp: string, pid: number): Promise<boolean> {
  if (pid === runtime.pid) return true; // ours and not in flight: a failed write
  const alive = await processAlive(pid);
  if (alive !== undefined) return !alive;
  const info = await runtime.stat(temp);
  return Date.now() - (info.mtime?.getTime() ?? Date.now()) > STALE_TEMP_MS;
}

/** Whether a process runs, from /proc; undefined where that cannot be told. */
async function processAlive(pid: number): Promise<boolean | undefined> {
  if (runtime.build.os !== "linux") return undefined;
  const proc = `/proc/${pid}`;
  if (!(await granted({ name: "read", path: proc }))) return undefined;
  try {
    await runtime.stat(proc);
    return true;
  } catch (error) {
    return isError(error, "notFound") ? false : undefined;
  }
}
