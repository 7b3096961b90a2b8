// Temporary folders for tests: created fresh, handed over by their real path
// (so paths compare equal to what the tools report), removed in `finally`.
import { join } from "node:path";

/** Runs `fn` with a fresh temporary folder as the workspace, then removes it. */
export async function withWorkspace(
  fn: (dir: string) => Promise<void>,
): Promise<void> {
  const dir = await Deno.realPath(
    await Deno.makeTempDir({ prefix: "fello_test_" }),
  );
  try {
    await fn(dir);
  } finally {
    await removeFolder(dir);
  }
}

// A process the test started may still be saving a file as it exits (an
// agent's session after its connection closed): a removal that meets a file
// written meanwhile ("Directory not empty") is tried again.
async function removeFolder(dir: string): Promise<void> {
  for (let attempt = 1;; attempt++) {
    try {
      return await Deno.remove(dir, { recursive: true });
    } catch (error) {
      const notEmpty = error instanceof Error &&
        /not empty/i.test(error.message);
      if (!notEmpty || attempt === 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** A temporary root and, inside it, the workspace and a folder outside it. */
export interface Dirs {
  root: string;
  /** The workspace. */
  ws: string;
  /** A folder outside the workspace. */
  out: string;
}

/** Runs `fn` with a fresh {@linkcode Dirs} layout, then removes it. */
export async function withDirs(
  fn: (dirs: Dirs) => Promise<void>,
): Promise<void> {
  await withWorkspace(async (root) => {
    const dirs = { root, ws: join(root, "ws"), out: join(root, "out") };
    await Deno.mkdir(dirs.ws);
    await Deno.mkdir(dirs.out);
    await fn(dirs);
  });
}

/**
 * Writes `files` (a path relative to `root` -> text or bytes) under `root`,
 * making folders as needed; returns the absolute paths in the same order.
 */
export async function writeFiles(
  root: string,
  files: Record<string, string | Uint8Array>,
): Promise<string[]> {
  const paths: string[] = [];
  for (const [name, content] of Object.entries(files)) {
    const path = join(root, name);
    await Deno.mkdir(join(path, ".."), { recursive: true });
    if (typeof content === "string") await Deno.writeTextFile(path, content);
    else await Deno.writeFile(path, content);
    paths.push(path);
  }
  return paths;
}

/** A workspace, a folder beside it, and a symlink that leads to that folder. */
export interface LinkedDirs {
  ws: string;
  /** The folder the link leads to. */
  real: string;
  /** A symlink to `real`. */
  link: string;
}

/** Runs `fn` with a fresh {@linkcode LinkedDirs} layout, then removes it. */
export async function withLinkedDirs(
  fn: (dirs: LinkedDirs) => Promise<void>,
): Promise<void> {
  await withWorkspace(async (root) => {
    const dirs = {
      ws: join(root, "ws"),
      real: join(root, "real"),
      link: join(root, "link"),
    };
    await Deno.mkdir(dirs.ws);
    await Deno.mkdir(dirs.real);
    await Deno.symlink(dirs.real, dirs.link);
    await fn(dirs);
  });
}

/**
 * Runs `fn` with a workspace reached through a symlink (`<root>/link/ws` leads
 * to `<root>/real/ws`) holding "needle" in `sub dir/a b.txt` and in `f.ts`.
 */
export async function withSymlinkedWorkspace(
  fn: (paths: { root: string; link: string; ws: string }) => Promise<void>,
): Promise<void> {
  await withWorkspace(async (root) => {
    await Deno.mkdir(join(root, "real/ws/sub dir"), { recursive: true });
    await Deno.writeTextFile(
      join(root, "real/ws/sub dir/a b.txt"),
      "needle one\n",
    );
    await Deno.writeTextFile(
      join(root, "real/ws/f.ts"),
      "/** needle doc */\nexport function f() {}\n",
    );
    await Deno.symlink(join(root, "real"), join(root, "link"));
    await fn({ root, link: join(root, "link"), ws: join(root, "link/ws") });
  });
}
