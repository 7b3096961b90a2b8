// A second process that edits a file with EditFile, for race tests: run as
// `edit_loop.ts WORKSPACE FILE PREFIX COUNT`, it turns the lines
// "PREFIX-<i> todo" into "PREFIX-<i> done" one edit at a time and prints how
// many edits reported success.
import { createTools } from "../../tools/create_tools.ts";

/** The line an edit loop turns from todo to done. */
export function loopLine(prefix: string, i: number, state: string): string {
  return `${prefix}-${i} ${state}`;
}

if (import.meta.main) {
  const [cwd, path, prefix, count] = Deno.args;
  const tools = createTools({ cwd, permissionMode: "acceptEdits" });
  let landed = 0;
  for (let i = 0; i < Number(count); i++) {
    try {
      await tools.EditFile.execute({
        path,
        oldText: loopLine(prefix, i, "todo"),
        newText: loopLine(prefix, i, "done"),
      });
      landed++;
    } catch (error) {
      console.error((error as Error).message);
    }
  }
  console.log(landed);
}
