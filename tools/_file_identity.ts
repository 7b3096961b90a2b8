// Which file an open handle really is, and folders pinned by a handle, so that
// a read or write touches exactly the object that was decided on, whatever
// another process swaps for a symlink meanwhile. Linux only: the kernel names
// an open file's current path in /proc/self/fd, and a path through
// /proc/self/fd/N resolves from that open folder, as openat() would. The
// checks are synchronous: no await lets a path change unseen between them.
import type { FileInfo, FsFile } from "../internal/runtime/runtime.ts";
import { runtime } from "../internal/runtime/runtime.ts";
import { ToolError } from "../internal/tool_error.ts";
import type { FileStat } from "./types.ts";

const FD_DIR = "/proc/self/fd";

/**
 * Whether two stats are the same file with the same content, as far as
 * metadata tells: device, inode, size, modification and change times.
 */
export function sameVersion(a: FileStat, b: FileStat): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size &&
    a.mtimeMs === b.mtimeMs && a.changeMs === b.changeMs;
}

/** Thrown when the file changed on disk since the version a tool read. */
export class FileChangedError extends Error {
  constructor(path: string) {
    super(`"${path}" changed on disk since it was read`);
    this.name = "FileChangedError";
  }
}

/**
 * Whether handles can be checked and folders pinned here: Linux, with Deno's
 * read and write grant for /proc/self/fd (an unrestricted grant has it).
 */
export function canPin(): boolean {
  if (runtime.build.os !== "linux") return false;
  for (const name of ["read", "write"] as const) {
    const status = runtime.permissions.querySync({ name, path: FD_DIR });
    if (status.state !== "granted") return false;
  }
  return true;
}

/**
 * The path the kernel gives for what `file` is open on now, found by its
 * device and inode among this process's descriptors; undefined when it
 * cannot be told.
 */
export function openedPath(file: FsFile): string | undefined {
  const fd = descriptorOf(file.statSync());
  return fd === undefined ? undefined : runtime.readLinkSync(`${FD_DIR}/${fd}`);
}

/** The descriptors of this process open on the file `info` describes. */
function descriptorsOf(info: FileInfo): Set<string> {
  const found = new Set<string>();
  for (const entry of runtime.readDirSync(FD_DIR)) {
    try {
      const other = runtime.statSync(`${FD_DIR}/${entry.name}`);
      if (other.dev === info.dev && other.ino === info.ino) {
        found.add(entry.name);
      }
    } catch {
      // a descriptor closed meanwhile (the listing's own)
    }
  }
  return found;
}

/** One descriptor open on the file `info` describes, none of `skip`. */
function descriptorOf(
  info: FileInfo,
  skip?: Set<string>,
): string | undefined {
  for (const fd of descriptorsOf(info)) if (!skip?.has(fd)) return fd;
  return undefined;
}

/** A folder held open: paths through it reach that folder, wherever it is now named. */
export class PinnedFolder implements Disposable {
  #handle: FsFile;
  #fd: string;

  constructor(handle: FsFile, fd: string) {
    this.#handle = handle;
    this.#fd = fd;
  }

  /**
   * Opens `folder` (a real path) and checks that what opened is that folder;
   * throws a ToolError naming `shown` when it now leads elsewhere.
   */
  static open(folder: string, shown: string): PinnedFolder {
    // Another call may hold the same folder open (same device and inode) and
    // close it at any time: this handle's descriptor is the one not open on
    // it before. Nothing else runs on this thread in between.
    const before = descriptorsOf(runtime.statSync(folder));
    const handle = runtime.openSync(folder, { read: true });
    try {
      const fd = descriptorOf(handle.statSync(), before);
      const real = fd === undefined
        ? undefined
        : runtime.readLinkSync(`${FD_DIR}/${fd}`);
      if (fd === undefined || real !== folder) {
        throw new ToolError(
          `Did not write "${shown}": its folder "${folder}" was swapped (it leads to "${
            real ?? "an unknown place"
          }" now, a symlink was made or the folder moved) while the write was prepared; nothing was written. Find out what replaced it before you try again`,
        );
      }
      return new PinnedFolder(handle, fd);
    } catch (error) {
      handle.close();
      throw error;
    }
  }

  /** A path to `name` inside the pinned folder, immune to renames of its parents. */
  at(name: string): string {
    return `${FD_DIR}/${this.#fd}/${name}`;
  }

  /**
   * Takes the folder's advisory lock (flock), shared by every process of this
   * package writing there: two agents on one repo replace files in turn.
   */
  async lock(): Promise<void> {
    await this.#handle.lock(true);
  }

  [Symbol.dispose](): void {
    this.#handle.close(); // closing releases the lock too
  }
}
