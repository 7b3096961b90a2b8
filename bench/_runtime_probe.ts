// Run by bench/runtimes_bench.ts under Deno and under Bun alike: reads one
// request a line on stdin, performs it and answers one line on stdout ("ok",
// or "error <message>"), so the bench times the operation, not a process
// start. Requests: `outline-warm <path>` (the running pool, cache cleared),
// `outline-cold <path>` (a fresh pool, then closed), `read <path> <line>`
// (ReadFile, 2,000 lines from <line>).
import { createInterface } from "node:readline";
import process from "node:process";
import { createTools } from "../mod.ts";
import { Outliner } from "../outline/outliner.ts";

const tools = createTools({ cwd: process.cwd(), permissionMode: "readOnly" });
const warm = new Outliner();

async function perform(request: string): Promise<void> {
  const [op, path, line] = request.split(" ");
  switch (op) {
    case "outline-warm":
      warm.clearCache();
      await warm.outline(path);
      return;
    case "outline-cold": {
      const fresh = new Outliner();
      try {
        await fresh.outline(path);
      } finally {
        await fresh.terminate();
      }
      return;
    }
    case "read":
      await tools.ReadFile.execute({ path, line: Number(line), limit: 2000 });
      return;
    default:
      throw new Error(`Unknown request: "${request}"`);
  }
}

for await (const request of createInterface({ input: process.stdin })) {
  try {
    await perform(request);
    process.stdout.write("ok\n");
  } catch (error) {
    process.stdout.write(`error ${String(error).replaceAll("\n", " ")}\n`);
  }
}
await warm.terminate();
