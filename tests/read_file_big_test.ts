// ReadFile on a 256 MB file (the 1 GB case is in bench/): a sparse file (no disk used) with text lines at
// both ends. A partial read must stream it with bounded memory, not load it.
import assert from "node:assert/strict";
import { join } from "node:path";
import { createTools } from "../mod.ts";

const SIZE = 256 * 1024 ** 2;

Deno.test("readFile() reads the tail of a 256 MB file with bounded memory", async () => {
  const ws = await Deno.makeTempDir({ prefix: "fello-huge-" });
  try {
    const path = join(ws, "huge.txt");
    let head = "";
    for (let i = 1; i <= 1000; i++) head += `head line ${i}\n`;
    const tail = "tail line A\ntail line B\n";
    const file = await Deno.open(path, { write: true, create: true });
    await file.write(new TextEncoder().encode(head));
    await file.truncate(SIZE - tail.length); // a hole of NUL bytes, no disk blocks
    await file.seek(SIZE - tail.length, Deno.SeekMode.Start);
    await file.write(new TextEncoder().encode(tail));
    file.close();
    // Memory is measured in a process of its own: the test process runs
    // other test files in parallel, and RSS counts them all.
    const { content, grown } = await _readTailInChild(ws, "huge.txt", 1002);
    assert.equal(content, "tail line B\n");
    assert.ok(grown < 64 * 1024 ** 2, `RSS grew by ${grown} bytes`);
    const tools = createTools({ cwd: ws, permissionMode: "allow" });
    // Line 1001 is the hole plus "tail line A"; 1002 is the last line.
    const last = await tools.ReadFile.execute({ path: "huge.txt", line: 1002 });
    assert.equal(last.content, "tail line B\n");
    assert.equal(last.totalLines, 1002);
    const first = await tools.ReadFile.execute({
      path: "huge.txt",
      line: 999,
      limit: 2,
    });
    assert.equal(first.content, "head line 999\nhead line 1000\n");
    assert.match(
      tools.ReadFile.toModelText(first),
      /use line=1001 to continue/,
    );
    const again = await tools.ReadFile.execute({
      path: "huge.txt",
      line: 1002,
    });
    assert.equal(again.content, "tail line B\n");
    await assert.rejects(
      tools.ReadFile.execute({ path: "huge.txt" }),
      /over the 100 KB limit/,
    );
  } finally {
    await Deno.remove(ws, { recursive: true });
  }
});

async function _readTailInChild(
  cwd: string,
  path: string,
  line: number,
): Promise<{ content: string; grown: number }> {
  const script = new URL("./support/read_tail_rss.ts", import.meta.url);
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", script.pathname, cwd, path, String(line)],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  assert.equal(output.code, 0);
  return JSON.parse(new TextDecoder().decode(output.stdout));
}
