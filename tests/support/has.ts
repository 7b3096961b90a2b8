// Whether a program is on PATH, for tests that need one (ripgrep, bwrap, bun)
// to be reported as ignored, with the reason in their name, when it is not.
import { delimiter, join } from "node:path";

const found = new Map<string, boolean>();

/** Whether `program` is an executable file in a folder of PATH. */
export function has(program: string): boolean {
  let answer = found.get(program);
  if (answer === undefined) {
    answer = (Deno.env.get("PATH") ?? "").split(delimiter).some((dir) => {
      try {
        const info = Deno.statSync(join(dir, program));
        return info.isFile && ((info.mode ?? 0o111) & 0o111) !== 0;
      } catch {
        return false;
      }
    });
    found.set(program, answer);
  }
  return answer;
}

const told = new Set<string>();

/**
 * A test's `ignore` for one that runs `program`: true when it is not on PATH,
 * printing once why the tests that need it are ignored.
 */
export function ignoreWithout(program: string): boolean {
  if (has(program)) return false;
  if (!told.has(program)) {
    told.add(program);
    console.log(`${program} is not on PATH: the tests that run it are ignored`);
  }
  return true;
}
