// Tools against other processes racing them: EditFile against writers that
// edit or append to the same file (no edit lost, no appended line lost), and
// ReadFile, WriteFile and EditFile while another process flips a file or its
// folder to a symlink out of the workspace (no read or write outside).
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { createTools } from "../../tools/create_tools.ts";
import { loopLine } from "../support/edit_loop.ts";
import { withWorkspace } from "../support/workspace.ts";
import { startFlipper } from "../support/flipper.ts";
import { withDirs } from "../support/workspace.ts";

const EDIT_LOOP = fileURLToPath(
  new URL("../support/edit_loop.ts", import.meta.url),
);
const CONFIG = fileURLToPath(new URL("../../deno.json", import.meta.url));
const EDITS = 25;
const APPENDS = 3000;

function editLoop(ws: string, prefix: string): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      `--config=${CONFIG}`,
      EDIT_LOOP,
      ws,
      "shared.txt",
      prefix,
      String(EDITS),
    ],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

Deno.test(`EditFile from two processes, ${EDITS} edits each on one file, loses none silently`, async () => {
  await withWorkspace(async (ws) => {
    const lines: string[] = [];
    for (const prefix of ["a", "b"]) {
      for (let i = 0; i < EDITS; i++) lines.push(loopLine(prefix, i, "todo"));
    }
    await Deno.writeTextFile(join(ws, "shared.txt"), lines.join("\n") + "\n");
    const children = [editLoop(ws, "a"), editLoop(ws, "b")];
    const outputs = await Promise.all(children.map((child) => child.output()));
    let reported = 0;
    for (const output of outputs) {
      assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
      reported += Number(new TextDecoder().decode(output.stdout).trim());
    }
    const text = await Deno.readTextFile(join(ws, "shared.txt"));
    const landed = text.split("\n").filter((line) => line.endsWith(" done"));
    // Every edit reported as done is in the file: no silent loss.
    assert.equal(landed.length, reported);
    assert.equal(reported, 2 * EDITS);
  });
});

Deno.test(`EditFile while a shell appends ${APPENDS} lines keeps every appended line`, async () => {
  await withWorkspace(async (ws) => {
    const file = join(ws, "log.txt");
    await Deno.writeTextFile(file, "header one\n");
    const appender = new Deno.Command("sh", {
      args: [
        "-c",
        `i=1; while [ $i -le ${APPENDS} ]; do echo "line $i" >> log.txt; i=$((i+1)); done`,
      ],
      cwd: ws,
      stdin: "null",
    }).spawn();
    const tools = createTools({ cwd: ws, permissionMode: "acceptEdits" });
    let edits = 0;
    let failures = 0;
    let done = false;
    appender.status.then(() => done = true);
    for (let i = 0; !done; i++) {
      const [oldText, newText] = i % 2 === 0
        ? ["header one", "header two"]
        : ["header two", "header one"];
      try {
        await tools.EditFile.execute({ path: "log.txt", oldText, newText });
        edits++;
      } catch (error) {
        failures++;
        assert.match((error as Error).message, /changed on disk/);
        // A failed edit wrote nothing: the header is as it was.
        i++;
      }
    }
    assert.equal((await appender.status).code, 0);
    const lines = (await Deno.readTextFile(file)).split("\n");
    const appended = new Set(lines.filter((line) => line.startsWith("line ")));
    const missing: number[] = [];
    for (let n = 1; n <= APPENDS; n++) {
      if (!appended.has(`line ${n}`)) missing.push(n);
    }
    assert.deepEqual(missing, [], `${edits} edits, ${failures} failed`);
    assert.ok(edits > 0, "no edit ran while the shell appended");
  });
});

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
