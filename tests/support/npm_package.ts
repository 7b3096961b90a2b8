// Files of published npm packages for benches and tests on real code: taken
// with `npm pack` into the gitignored .bench-data/ folder on first use (never
// committed) and kept there.
import { join } from "node:path";
import { exists } from "../../internal/exists.ts";

/** The folder holding the unpacked packages (gitignored). */
export const BENCH_DATA: string =
  new URL("../../.bench-data/", import.meta.url).pathname;

/**
 * The path of `file` inside the npm package `spec` (e.g. `typescript@5.9.3`),
 * unpacked into .bench-data/ with `npm pack` the first time. A folder is
 * unpacked with everything under it.
 */
export async function packageFile(spec: string, file: string): Promise<string> {
  const folder = join(BENCH_DATA, spec.replace("/", "__"));
  const path = join(folder, file);
  // A folder may exist only partly, holding a file asked for before it, so
  // what was unpacked whole is marked.
  const marker = join(folder, ".unpacked", file.replaceAll("/", "__"));
  if (await exists(marker)) return path;
  await unpack(spec, folder, [`package/${file}`]);
  await Deno.mkdir(join(folder, ".unpacked"), { recursive: true });
  await Deno.writeTextFile(marker, "");
  return path;
}

/** Packs `spec` with `npm pack` and unpacks `members` of it (all when none) into `folder`. */
async function unpack(
  spec: string,
  folder: string,
  members: string[] = [],
): Promise<void> {
  await Deno.mkdir(folder, { recursive: true });
  // Each call packs into its own folder: two processes unpacking one package
  // must not share (and remove) one tarball.
  const scratch = await Deno.makeTempDir({ dir: folder, prefix: ".pack-" });
  try {
    const packed = await _run("npm", [
      "pack",
      spec,
      "--silent",
      "--pack-destination",
      scratch,
    ]);
    const tarball = join(scratch, packed.trim().split("\n").at(-1)!);
    await _run("tar", [
      "xzf",
      tarball,
      "-C",
      folder,
      "--strip-components=1",
      ...members,
    ]);
  } finally {
    await Deno.remove(scratch, { recursive: true });
  }
}

async function _run(command: string, args: string[]): Promise<string> {
  const output = await new Deno.Command(command, {
    args,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!output.success) {
    throw new Error(
      `${command} ${args.join(" ")} failed: ${
        new TextDecoder().decode(output.stderr)
      }`,
    );
  }
  return new TextDecoder().decode(output.stdout);
}

/**
 * A folder holding the whole npm packages `specs`, one subfolder each
 * (`react-native@0.76.5/...`), unpacked into .bench-data/ the first time.
 */
export async function packageTree(
  name: string,
  specs: string[],
): Promise<string> {
  const root = join(BENCH_DATA, name);
  for (const spec of specs) {
    const folder = join(root, spec.replace("/", "__"));
    if (!await exists(join(folder, "package.json"))) {
      await unpack(spec, folder);
    }
  }
  return root;
}
