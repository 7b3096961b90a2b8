// A secret planted outside the workspace, and a link inside the workspace
// that leads to it: the bait for tests of the workspace boundary.
import { join } from "node:path";

/** The text of the planted files: no answer may contain it. */
export const SECRET = "TOPSECRET-outside-42";

/**
 * Writes `out/secret.txt` and `out/dir/inner.txt` (both {@linkcode SECRET}),
 * links `ws/link` -> `out/dir`, and writes `ws/a.txt` ("inside").
 */
export async function plantLink(ws: string, out: string): Promise<void> {
  await Deno.mkdir(join(out, "dir"));
  await Deno.writeTextFile(join(out, "secret.txt"), `${SECRET}\n`);
  await Deno.writeTextFile(join(out, "dir/inner.txt"), `${SECRET}\n`);
  await Deno.symlink(join(out, "dir"), join(ws, "link"));
  await Deno.writeTextFile(join(ws, "a.txt"), "inside\n");
}
