// ReadFile, WriteFile and EditFile while another process flips the file, or
// its folder, between a real entry and a symlink out of the workspace: no
// call may read or write outside (acceptEdits, an approver that refuses all).
import assert from "node:assert/strict";
import { join } from "node:path";
import { createTools } from "../../tools/create_tools.ts";
import { startFlipper } from "../support/flipper.ts";
import { withDirs } from "../support/workspace.ts";

const CALLS = 300;
const SECRET = "outside secret inside\n";

type Operation = "ReadFile" | "WriteFile" | "EditFile";

/**
 * Runs CALLS calls of `operation` on `a.txt` (under `sub/` when the folder
 * flips) while a flipper runs; resolves to the escapes: outside content
 * returned, or the outside file changed.
 */
async function escapes(
  operation: Operation,
  flip: "file" | "folder",
): Promise<{ escaped: number; done: number }> {
  let escaped = 0;
  let done = 0;
  await withDirs(async ({ ws, out }) => {
    const outFile = join(out, "a.txt");
    await Deno.writeTextFile(outFile, SECRET);
    await Deno.mkdir(join(ws, "sub"));
    const path = flip === "file" ? "a.txt" : "sub/a.txt";
    await Deno.writeTextFile(join(ws, path), "inside old\n");
    const tools = createTools({
      cwd: ws,
      permissionMode: "acceptEdits",
      approve: () => false,
    });
    const flipper = flip === "file"
      ? startFlipper(join(ws, "a.txt"), outFile)
      : startFlipper(join(ws, "sub"), out);
    try {
      for (let i = 0; i < CALLS; i++) {
        try {
          if (operation === "ReadFile") {
            const { content } = await tools.ReadFile.execute({ path });
            if (content.includes("outside secret")) escaped++;
          } else if (operation === "WriteFile") {
            await tools.WriteFile.execute({ path, content: `inside ${i}\n` });
          } else {
            // Matches the outside file too: an escaped edit would change it.
            const [oldText, newText] = i % 2 === 0
              ? ["inside", "INSIDE"]
              : ["INSIDE", "inside"];
            await tools.EditFile.execute({ path, oldText, newText });
          }
          done++;
        } catch {
          // Refused, changed, missing: all fine, as long as nothing escaped.
        }
        if (operation !== "ReadFile") {
          const now = await Deno.readTextFile(outFile);
          if (now !== SECRET) {
            escaped++;
            await Deno.writeTextFile(outFile, SECRET);
          }
        }
      }
    } finally {
      flipper.kill("SIGKILL");
      await flipper.status;
    }
  });
  return { escaped, done };
}

for (const operation of ["ReadFile", "WriteFile", "EditFile"] as const) {
  for (const flip of ["file", "folder"] as const) {
    Deno.test(`${operation} never reaches outside while another process flips its ${flip} to a symlink (${CALLS} calls)`, async () => {
      const { escaped, done } = await escapes(operation, flip);
      assert.equal(escaped, 0);
      // The race was live: calls got through between the flips.
      assert.ok(done > 0, "no call succeeded");
    });
  }
}
