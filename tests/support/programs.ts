// Whether a program is installed, for tests that need it (and are ignored,
// with the reason in their name's note, when it is not).
import { join } from "node:path";

/** Whether `program` is an executable file in a folder of PATH. */
export function has(program: string): boolean {
  for (const folder of (Deno.env.get("PATH") ?? "").split(":")) {
    if (folder === "") continue;
    try {
      const info = Deno.statSync(join(folder, program));
      if (info.isFile && ((info.mode ?? 0o111) & 0o111) !== 0) return true;
    } catch {
      // not in this folder
    }
  }
  return false;
}
