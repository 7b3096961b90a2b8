import assert from "node:assert/strict";
import { join } from "node:path";
import { createTools, ToolError } from "../../mod.ts";
import { withDirs, withWorkspace } from "../../tests/support/workspace.ts";
import type { FileBackend } from "../../mod.ts";
import { createLocalFiles } from "../local_files.ts";
import { runDeno } from "../../tests/support/run_deno.ts";

const READ_TAIL_RSS = new URL(
  "../../tests/support/read_tail_rss.ts",
  import.meta.url,
).pathname;
import {
  recorder,
  rejectsTool,
  toolErrorMessage,
} from "../../tests/support/tool_asserts.ts";
import { childPeak, MB, MOD } from "../../tests/support/child_peak.ts";

function tools(ws: string) {
  return createTools({ cwd: ws, permissionMode: "allow" });
}

/** Lines "line 1\n" ... "line n\n". */
function numbered(n: number): string {
  let text = "";
  for (let i = 1; i <= n; i++) text += `line ${i}\n`;
  return text;
}

Deno.test("readFile() returns a whole small file exactly, CRLF kept", async () => {
  await withWorkspace(async (ws) => {
    await Deno.writeTextFile(join(ws, "a.txt"), "one\r\ntwo\nthree");
    const r = await tools(ws).ReadFile.execute({ path: "a.txt" });
    assert.deepEqual(r, {
      path: "a.txt",
      content: "one\r\ntwo\nthree",
      startLine: 1,
      endLine: 3,
      totalLines: 3,
    });
  });
});

Deno.test("readFile() selects lines with line and limit", async () => {
  await withWorkspace(async (ws) => {
    await Deno.writeTextFile(join(ws, "a.txt"), numbered(30));
    const t = tools(ws);
    const r = await t.ReadFile.execute({ path: "a.txt", line: 10, limit: 5 });
    assert.equal(r.content, "line 10\nline 11\nline 12\nline 13\nline 14\n");
    assert.equal(r.startLine, 10);
    assert.equal(r.endLine, 14);
    assert.equal(r.totalLines, 30);
    const head = await t.ReadFile.execute({ path: "a.txt", limit: 2 });
    assert.equal(head.content, "line 1\nline 2\n");
    const tail = await t.ReadFile.execute({ path: "a.txt", line: 29 });
    assert.equal(tail.content, "line 29\nline 30\n");
    assert.equal(tail.endLine, 30);
  });
});

Deno.test("readFile() with line but no limit returns at most 2000 lines", async () => {
  await withWorkspace(async (ws) => {
    await Deno.writeTextFile(join(ws, "a.txt"), numbered(2500));
    const t = tools(ws);
    const r = await t.ReadFile.execute({ path: "a.txt", line: 1 });
    assert.equal(r.endLine, 2000);
    assert.equal(r.totalLines, 2500);
    const text = t.ReadFile.toModelText(r);
    assert.match(text, /use line=2001 to continue/);
  });
});

Deno.test("readFile() refuses a full read over 100 KB without opening it", async () => {
  await withWorkspace(async (ws) => {
    await Deno.writeTextFile(join(ws, "big.txt"), "x".repeat(102_401));
    await Deno.writeTextFile(join(ws, "edge.txt"), "y".repeat(102_400));
    const local = createLocalFiles();
    let opens = 0;
    const files: FileBackend = {
      ...local,
      open(path) {
        opens++;
        return local.open(path);
      },
    };
    const t = createTools({
      cwd: ws,
      permissionMode: "allow",
      backend: { files },
    });
    const message = await toolErrorMessage(
      t.ReadFile.execute({ path: "big.txt" }),
    );
    assert.equal(opens, 0);
    assert.match(message, /102401 bytes/);
    assert.match(message, /file_outline/);
    assert.match(message, /line and limit/);
    assert.match(message, /force: true/);
    const edge = await t.ReadFile.execute({ path: "edge.txt" });
    assert.equal(edge.content.length, 102_400);
    const forced = await t.ReadFile.execute({ path: "big.txt", force: true });
    assert.equal(forced.content.length, 102_401);
    const part = await t.ReadFile.execute({
      path: "big.txt",
      line: 1,
      limit: 1,
    });
    assert.equal(part.content.length, 102_401);
  });
});

Deno.test("readFile() states the line count when line is past the end", async () => {
  await withWorkspace(async (ws) => {
    await Deno.writeTextFile(join(ws, "a.txt"), numbered(42));
    await Deno.writeTextFile(join(ws, "b.txt"), "a\nb");
    const t = tools(ws);
    assert.match(
      await toolErrorMessage(t.ReadFile.execute({ path: "a.txt", line: 43 })),
      /has only 42 lines/,
    );
    assert.match(
      await toolErrorMessage(t.ReadFile.execute({ path: "b.txt", line: 3 })),
      /has only 2 lines/,
    );
    assert.equal(
      (await t.ReadFile.execute({ path: "b.txt", line: 2 })).content,
      "b",
    );
    await toolErrorMessage(t.ReadFile.execute({ path: "a.txt", line: 0 }));
    await toolErrorMessage(t.ReadFile.execute({ path: "a.txt", limit: 0 }));
    await toolErrorMessage(t.ReadFile.execute({ path: "a.txt", line: 1.5 }));
  });
});

Deno.test("readFile() decodes BOMs and UTF-16", async () => {
  await withWorkspace(async (ws) => {
    const text = "héllo\r\nwörld\n";
    const bom = new Uint8Array([0xef, 0xbb, 0xbf]);
    await Deno.writeFile(
      join(ws, "bom.txt"),
      new Uint8Array([...bom, ...new TextEncoder().encode(text)]),
    );
    const le = [0xff, 0xfe];
    const be = [0xfe, 0xff];
    for (const ch of text) {
      const c = ch.charCodeAt(0);
      le.push(c & 0xff, c >> 8);
      be.push(c >> 8, c & 0xff);
    }
    await Deno.writeFile(join(ws, "le.txt"), new Uint8Array(le));
    await Deno.writeFile(join(ws, "be.txt"), new Uint8Array(be));
    const t = tools(ws);
    for (const path of ["bom.txt", "le.txt", "be.txt"]) {
      assert.equal((await t.ReadFile.execute({ path })).content, text, path);
      const second = await t.ReadFile.execute({ path, line: 2 });
      assert.equal(second.content, "wörld\n", path);
      assert.equal(second.totalLines, 2, path);
      const first = await t.ReadFile.execute({ path, line: 1, limit: 1 });
      assert.equal(first.content, "héllo\r\n", path);
    }
  });
});

Deno.test("readFile() refuses binaries, and images with a hint to ImageAnalysis", async () => {
  await withWorkspace(async (ws) => {
    await Deno.writeFile(join(ws, "a.bin"), new Uint8Array([65, 66, 0, 67]));
    await Deno.writeFile(
      join(ws, "pic.png"),
      new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]),
    );
    const t = tools(ws);
    assert.match(
      await toolErrorMessage(t.ReadFile.execute({ path: "a.bin" })),
      /binary/,
    );
    const image = await toolErrorMessage(
      t.ReadFile.execute({ path: "pic.png", line: 1 }),
    );
    assert.match(image, /image \(PNG\)/);
    assert.match(image, /ImageAnalysis/);
  });
});

Deno.test("readFile() suggests similar names for a missing file", async () => {
  await withWorkspace(async (ws) => {
    await Deno.mkdir(join(ws, "src"));
    for (
      const name of [
        "config.ts",
        "config.json",
        "confog.ts",
        "conf.ts",
        "other.md",
      ]
    ) {
      await Deno.writeTextFile(join(ws, "src", name), "x");
    }
    const t = tools(ws);
    const message = await toolErrorMessage(
      t.ReadFile.execute({ path: "src/config.js" }),
    );
    assert.match(message, /^Cannot read "src\/config.js": no such file/);
    const listed = message.match(/"[^"]+\.(ts|json|md)"/g) ?? [];
    assert.equal(listed.length, 3);
    assert.ok(!message.includes("other.md"));
    assert.match(
      await toolErrorMessage(t.ReadFile.execute({ path: "nope/a.ts" })),
      /neither does its folder/,
    );
  });
});

Deno.test("readFile() gives a directory its own error", async () => {
  await withWorkspace(async (ws) => {
    await Deno.mkdir(join(ws, "src"));
    const message = await toolErrorMessage(
      tools(ws).ReadFile.execute({ path: "src" }),
    );
    assert.match(message, /is a directory/);
  });
});

Deno.test("readFile() returns an empty file as a result that says so", async () => {
  await withWorkspace(async (ws) => {
    await Deno.writeTextFile(join(ws, "empty.txt"), "");
    const t = tools(ws);
    const r = await t.ReadFile.execute({ path: "empty.txt" });
    assert.equal(r.content, "");
    assert.equal(r.totalLines, 0);
    assert.match(t.ReadFile.toModelText(r), /empty/);
    const partial = await t.ReadFile.execute({ path: "empty.txt", line: 1 });
    assert.equal(partial.content, "");
  });
});

Deno.test("readFile() model text numbers every line and shortens long ones", async () => {
  await withWorkspace(async (ws) => {
    const long = "z".repeat(5000);
    await Deno.writeTextFile(join(ws, "a.txt"), `alpha\r\n${long}\nomega\n`);
    const t = tools(ws);
    const text = t.ReadFile.toModelText(
      await t.ReadFile.execute({ path: "a.txt" }),
    );
    const lines = text.split("\n");
    assert.equal(lines.length, 3);
    assert.equal(lines[0], "1\talpha");
    assert.match(lines[1], /^2\tz{2000}… \[line shortened: 5000 characters/);
    assert.equal(lines[2], "3\tomega");
    assert.ok(!text.includes("continue"));
    const part = t.ReadFile.toModelText(
      await t.ReadFile.execute({ path: "a.txt", line: 1, limit: 1 }),
    );
    assert.match(
      part,
      /^1\talpha\n\n\(Lines 1-1 of 3 .*use line=2 to continue/,
    );
  });
});

Deno.test("readFile() resolves a relative path against the call's cwd", async () => {
  await withWorkspace(async (ws) => {
    await Deno.mkdir(join(ws, "sub"));
    await Deno.writeTextFile(join(ws, "sub", "a.txt"), "in sub\n");
    const r = await tools(ws).ReadFile.execute({ path: "a.txt", cwd: "sub" });
    assert.equal(r.content, "in sub\n");
    assert.equal(r.path, join("sub", "a.txt"));
  });
});

Deno.test("readFile() selects exactly the same lines as a split, across chunk and checkpoint edges", async () => {
  await withWorkspace(async (ws) => {
    // ~2.5 MB of lines of random length (some empty, some long), no final newline.
    let seed = 42;
    const random = () =>
      (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const lines: string[] = [];
    let size = 0;
    while (size < 2_500_000) {
      const length = random() < 0.05
        ? Math.floor(random() * 3000)
        : Math.floor(random() * 60);
      const line = `${lines.length}:${
        "abcdefghij".repeat(300).slice(0, length)
      }`;
      lines.push(line);
      size += line.length + 1;
    }
    const text = lines.join("\n");
    await Deno.writeTextFile(join(ws, "big.txt"), text);
    const t = tools(ws);
    const picks = [1, 2048, 2049, 4097, lines.length - 1, lines.length];
    for (let i = 0; i < 30; i++) {
      picks.push(1 + Math.floor(random() * lines.length));
    }
    for (const line of picks) {
      for (const limit of [1, 7, 3000]) {
        const r = await t.ReadFile.execute({ path: "big.txt", line, limit });
        const end = Math.min(lines.length, line + limit - 1);
        const expected = lines.slice(line - 1, end).join("\n") +
          (end < lines.length ? "\n" : "");
        assert.equal(r.content, expected, `line ${line} limit ${limit}`);
        assert.equal(r.endLine, end);
        assert.equal(r.totalLines, lines.length);
      }
    }
    assert.match(
      await toolErrorMessage(
        t.ReadFile.execute({ path: "big.txt", line: lines.length + 1 }),
      ),
      new RegExp(`has only ${lines.length} lines`),
    );
  });
});

Deno.test("readFile() sees a changed file, not a stale line index", async () => {
  await withWorkspace(async (ws) => {
    const path = join(ws, "big.txt");
    await Deno.writeTextFile(path, numbered(200_000));
    const t = tools(ws);
    const before = await t.ReadFile.execute({
      path: "big.txt",
      line: 150_000,
      limit: 1,
    });
    assert.equal(before.content, "line 150000\n");
    await t.WriteFile.execute({
      path: "big.txt",
      content: "new\n" + numbered(200_000),
    });
    const after = await t.ReadFile.execute({
      path: "big.txt",
      line: 150_000,
      limit: 1,
    });
    assert.equal(after.content, "line 149999\n");
    await Deno.writeTextFile(path, numbered(199_999));
    const external = await t.ReadFile.execute({
      path: "big.txt",
      line: 150_000,
      limit: 1,
    });
    assert.equal(external.content, "line 150000\n");
    assert.equal(external.totalLines, 199_999);
  });
});

Deno.test("readFile() leaves totalLines out only for a partial read of a file over 10 MB", async () => {
  await withWorkspace(async (ws) => {
    const block = numbered(100_000); // ~1.1 MB
    const file = await Deno.open(join(ws, "huge.txt"), {
      write: true,
      create: true,
    });
    for (let i = 0; i < 10; i++) {
      await file.write(new TextEncoder().encode(block));
    }
    file.close();
    const t = tools(ws);
    const head = await t.ReadFile.execute({
      path: "huge.txt",
      line: 1,
      limit: 3,
    });
    assert.equal(head.content, "line 1\nline 2\nline 3\n");
    assert.equal(head.totalLines, undefined);
    assert.match(t.ReadFile.toModelText(head), /use line=4 to continue/);
    const tail = await t.ReadFile.execute({ path: "huge.txt", line: 999_999 });
    assert.equal(tail.content, "line 99999\nline 100000\n");
    assert.equal(tail.totalLines, 1_000_000);
  });
});

Deno.test("readFile() stops when its signal aborts", async () => {
  await withWorkspace(async (ws) => {
    await Deno.writeTextFile(join(ws, "a.txt"), numbered(10));
    const controller = new AbortController();
    controller.abort();
    const message = await toolErrorMessage(
      tools(ws).ReadFile.execute({ path: "a.txt", line: 2 }, {
        signal: controller.signal,
      }),
    );
    assert.match(message, /aborted/);
  });
});

Deno.test("readFile() states a size just past the 100 KB limit in bytes, a larger one rounded", async () => {
  await withWorkspace(async (ws) => {
    await Deno.writeTextFile(join(ws, "edge.txt"), "x".repeat(102_401));
    await Deno.writeTextFile(join(ws, "big.txt"), "x".repeat(150 * 1024));
    const edge = await toolErrorMessage(
      tools(ws).ReadFile.execute({ path: "edge.txt" }),
    );
    assert.match(
      edge,
      /^Cannot read "edge.txt" whole: it is 102401 bytes, over the 100 KB limit \(102400 bytes\) for a full read; call file_outline/,
    );
    const big = await toolErrorMessage(
      tools(ws).ReadFile.execute({ path: "big.txt" }),
    );
    assert.match(big, /it is 150 KB \(153600 bytes\), over the 100 KB limit/);
  });
});

Deno.test("readFile() asks about a path through a symlink out of the workspace as its real target", async () => {
  await withDirs(async ({ ws, out }) => {
    await Deno.writeTextFile(join(out, "secret.txt"), "s\n");
    await Deno.symlink(join(out, "secret.txt"), join(ws, "innocent.txt"));
    const { calls: asked, approve } = recorder(false);
    const t = createTools({
      cwd: ws,
      approve,
    });
    await toolErrorMessage(t.ReadFile.execute({ path: "innocent.txt" }));
    assert.deepEqual(asked, [{
      tool: "ReadFile",
      action: "read",
      path: join(out, "secret.txt"),
      outsideWorkspace: true,
      description: `Read "innocent.txt" (really "${join(out, "secret.txt")}")`,
    }]);
  });
});

Deno.test("readFile() refuses a file swapped for a symlink while its approval was pending", async () => {
  await withDirs(async ({ ws, out }) => {
    await Deno.writeTextFile(join(out, "secret.txt"), "SECRET\n");
    const asked = join(out, "notes.txt");
    await Deno.writeTextFile(asked, "notes\n");
    const t = createTools({
      cwd: ws,
      approve: async () => {
        await Deno.remove(asked);
        await Deno.symlink(join(out, "secret.txt"), asked);
        return true;
      },
    });
    const message = await toolErrorMessage(t.ReadFile.execute({ path: asked }));
    assert.match(message, /^Did not read ".*notes\.txt": it changed/);
    assert.doesNotMatch(message, /SECRET/);
  });
});

Deno.test("readFile() returns the selected lines with 1-based startLine, endLine and totalLines", async () => {
  await withDirs(async ({ ws }) => {
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
    await Deno.mkdir(join(ws, "src"));
    await Deno.writeTextFile(join(ws, "src/a.ts"), lines.join("\n") + "\n");
    const tools = createTools({ cwd: ws, permissionMode: "ask" });
    const r = await tools.ReadFile.execute({
      path: "src/a.ts",
      line: 10,
      limit: 5,
    });
    assert.equal(r.content.replace(/\n$/, ""), lines.slice(9, 14).join("\n"));
    assert.equal(r.startLine, 10);
    assert.equal(r.endLine, 14);
    assert.equal(r.totalLines, 20);
  });
});

Deno.test("readFile() keeps CRLF in a full read and in a range from a middle line", async () => {
  await withDirs(async ({ ws }) => {
    const text = "alpha\r\nbeta\r\ngamma\r\n";
    await Deno.writeTextFile(join(ws, "crlf.txt"), text);
    const tools = createTools({ cwd: ws });
    const full = await tools.ReadFile.execute({ path: "crlf.txt" });
    assert.equal(full.content, text);
    assert.equal(full.startLine, 1);
    assert.equal(full.endLine, 3);
    assert.equal(full.totalLines, 3);
    const part = await tools.ReadFile.execute({
      path: "crlf.txt",
      line: 2,
      limit: 2,
    });
    assert.ok(
      part.content.startsWith("beta\r\ngamma"),
      JSON.stringify(part.content),
    );
    assert.equal(part.startLine, 2);
    assert.equal(part.endLine, 3);
  });
});

Deno.test("readFile() names the size, file_outline, line, limit and force when it refuses a full read over 100 KB", async () => {
  await withDirs(async ({ ws }) => {
    const line = "x".repeat(99) + "\n"; // 100 bytes
    await Deno.writeTextFile(join(ws, "big.txt"), line.repeat(1500)); // 150,000 bytes
    await Deno.writeTextFile(join(ws, "edge.txt"), line.repeat(1024)); // exactly 102,400 bytes
    const tools = createTools({ cwd: ws });
    const error = await rejectsTool(
      tools.ReadFile.execute({ path: "big.txt" }),
      "big.txt",
      "file_outline",
      "force",
    );
    assert.match(
      error.message,
      /150[,. ]?000|146(\.\d+)? ?Ki?B/i,
      "names the size",
    );
    assert.match(error.message, /\bline\b/);
    assert.match(error.message, /\blimit\b/);
    const forced = await tools.ReadFile.execute({
      path: "big.txt",
      force: true,
    });
    assert.equal(forced.content.length, 150_000);
    assert.equal(forced.totalLines, 1500);
    const partial = await tools.ReadFile.execute({
      path: "big.txt",
      line: 1400,
      limit: 2,
    });
    assert.equal(partial.content.replace(/\n$/, ""), line + line.trimEnd());
    assert.equal(partial.startLine, 1400);
    const edge = await tools.ReadFile.execute({ path: "edge.txt" });
    assert.equal(edge.content.length, 102_400);
  });
});

Deno.test("readFile() model text numbers lines, shortens a 5,000-character line and gives the next line=", async () => {
  await withDirs(async ({ ws }) => {
    const long = "y".repeat(5000);
    const text = ["alpha", "beta", long, "delta", "epsilon"].join("\n") + "\n";
    await Deno.writeTextFile(join(ws, "m.txt"), text);
    const tools = createTools({ cwd: ws });
    const r = await tools.ReadFile.execute({
      path: "m.txt",
      line: 1,
      limit: 3,
    });
    assert.ok(r.content.includes(long), "content keeps the long line exactly");
    const shown = tools.ReadFile.toModelText(r);
    assert.match(shown, /^\s*1[^\d\n]*alpha/m);
    assert.match(shown, /^\s*2[^\d\n]*beta/m);
    assert.match(shown, /^\s*3[^\d\n]*yyyy/m);
    assert.ok(
      !shown.includes("y".repeat(2001)),
      "a line over 2,000 characters is shortened",
    );
    assert.ok(shown.length < 4000);
    assert.match(shown, /line=4\b/);
    const all = tools.ReadFile.toModelText(
      await tools.ReadFile.execute({ path: "m.txt", line: 4 }),
    );
    assert.match(all, /^\s*5[^\d\n]*epsilon/m);
    assert.doesNotMatch(all, /line=\d/, "no footer when nothing remains");
  });
});

Deno.test("readFile() with line and no limit stops at 2,000 lines; a full read returns them all", async () => {
  await withDirs(async ({ ws }) => {
    const text = Array.from({ length: 2500 }, (_, i) =>
      `l${i + 1}`).join("\n") + "\n";
    await Deno.writeTextFile(join(ws, "many.txt"), text);
    const tools = createTools({ cwd: ws });
    const r = await tools.ReadFile.execute({ path: "many.txt", line: 1 });
    assert.equal(r.startLine, 1);
    assert.equal(r.endLine, 2000);
    assert.equal(r.totalLines, 2500);
    assert.equal(r.content.split("\n").filter((l) => l !== "").length, 2000);
    assert.match(tools.ReadFile.toModelText(r), /line=2001\b/);
    const full = await tools.ReadFile.execute({ path: "many.txt" });
    assert.equal(full.content, text);
    assert.equal(full.endLine, 2500);
  });
});

Deno.test("readFile() names the file for a line past the end and for line or limit below 1", async () => {
  await withDirs(async ({ ws }) => {
    await Deno.writeTextFile(join(ws, "three.txt"), "a\nb\nc\n");
    const tools = createTools({ cwd: ws });
    await rejectsTool(
      tools.ReadFile.execute({ path: "three.txt", line: 10 }),
      "three.txt",
      /\b3\b/,
    );
    await rejectsTool(
      tools.ReadFile.execute({ path: "three.txt", line: 0 }),
      "three.txt",
    );
    await rejectsTool(
      tools.ReadFile.execute({ path: "three.txt", line: -2 }),
      "three.txt",
    );
    await rejectsTool(
      tools.ReadFile.execute({ path: "three.txt", limit: 0 }),
      "three.txt",
    );
    await rejectsTool(
      tools.ReadFile.execute({ path: "three.txt", line: 1, limit: -1 }),
      "three.txt",
    );
  });
});

Deno.test("readFile() drops a UTF-8 BOM and decodes UTF-16 LE and BE with a BOM", async () => {
  await withDirs(async ({ ws }) => {
    await Deno.writeFile(
      join(ws, "bom.txt"),
      new Uint8Array([
        0xef,
        0xbb,
        0xbf,
        ...new TextEncoder().encode("héllo\n"),
      ]),
    );
    const le = [0xff, 0xfe];
    const be = [0xfe, 0xff];
    for (const ch of "hi ü\n") {
      const code = ch.charCodeAt(0);
      le.push(code & 0xff, code >> 8);
      be.push(code >> 8, code & 0xff);
    }
    await Deno.writeFile(join(ws, "le.txt"), new Uint8Array(le));
    await Deno.writeFile(join(ws, "be.txt"), new Uint8Array(be));
    const tools = createTools({ cwd: ws });
    assert.equal(
      (await tools.ReadFile.execute({ path: "bom.txt" })).content,
      "héllo\n",
    );
    assert.equal(
      (await tools.ReadFile.execute({ path: "le.txt" })).content,
      "hi ü\n",
    );
    assert.equal(
      (await tools.ReadFile.execute({ path: "be.txt" })).content,
      "hi ü\n",
    );
  });
});

Deno.test("readFile() names the file when it refuses a NUL-byte file as binary and a PNG for ImageAnalysis", async () => {
  await withDirs(async ({ ws }) => {
    await Deno.writeFile(
      join(ws, "blob.dat"),
      new Uint8Array([0x41, 0x42, 0x00, 0x43, 0x0a, 0x44]),
    );
    const png = [
      0x89,
      0x50,
      0x4e,
      0x47,
      0x0d,
      0x0a,
      0x1a,
      0x0a,
      0,
      0,
      0,
      0x0d,
      0x49,
      0x48,
      0x44,
      0x52,
    ];
    await Deno.writeFile(
      join(ws, "shot.png"),
      new Uint8Array([...png, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]),
    );
    const tools = createTools({ cwd: ws });
    await rejectsTool(
      tools.ReadFile.execute({ path: "blob.dat" }),
      "blob.dat",
      /binary/i,
    );
    await rejectsTool(
      tools.ReadFile.execute({ path: "shot.png" }),
      "shot.png",
      "ImageAnalysis",
    );
  });
});

Deno.test("readFile() of a missing file lists only similar names; a directory is not called missing", async () => {
  await withDirs(async ({ ws }) => {
    await Deno.mkdir(join(ws, "src"));
    await Deno.writeTextFile(join(ws, "src/config.json"), "{}\n");
    await Deno.writeTextFile(join(ws, "src/unrelated_zzz.md"), "x\n");
    const tools = createTools({ cwd: ws });
    const error = await rejectsTool(
      tools.ReadFile.execute({ path: "src/confg.json" }),
      "src/confg.json",
      "config.json",
    );
    assert.ok(!error.message.includes("unrelated_zzz"), error.message);
    const dir = await rejectsTool(
      tools.ReadFile.execute({ path: "src" }),
      "src",
      /director|folder/i,
    );
    assert.doesNotMatch(dir.message, /not found|no such/i);
  });
});

Deno.test("readFile() of an empty file returns empty content and its model text says empty", async () => {
  await withDirs(async ({ ws }) => {
    await Deno.writeTextFile(join(ws, "empty.txt"), "");
    const tools = createTools({ cwd: ws });
    const r = await tools.ReadFile.execute({ path: "empty.txt" });
    assert.equal(r.content, "");
    assert.match(tools.ReadFile.toModelText(r), /empty/i);
  });
});

Deno.test("readFile() reads the tail of a 256 MB sparse file with bounded memory", async () => {
  await withWorkspace(async (ws) => {
    const path = join(ws, "huge.txt");
    let head = "";
    for (let i = 1; i <= 1000; i++) head += `head line ${i}\n`;
    const tail = "tail line A\ntail line B\n";
    const file = await Deno.open(path, { write: true, create: true });
    await file.write(new TextEncoder().encode(head));
    await file.truncate(256 * 1024 ** 2 - tail.length); // a hole of NUL bytes, no disk blocks
    await file.seek(256 * 1024 ** 2 - tail.length, Deno.SeekMode.Start);
    await file.write(new TextEncoder().encode(tail));
    file.close();
    // Memory is measured in a process of its own: the test process runs
    // other test files in parallel, and RSS counts them all.
    const { stdout } = await runDeno(["--allow-read"], READ_TAIL_RSS, [
      ws,
      "huge.txt",
      "1002",
    ]);
    const { content, grown } = JSON.parse(stdout);
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
  });
});

Deno.test("readFile() refuses a file with a UTF-8 BOM followed by binary bytes", async () => {
  await withWorkspace(async (ws) => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, 0, 1, 2, 3, 0, 0, 0x0a]);
    await Deno.writeFile(join(ws, "blob.dat"), bytes);
    const tools = createTools({ cwd: ws });
    await assert.rejects(
      tools.ReadFile.execute({ path: "blob.dat" }),
      (error: unknown) =>
        error instanceof ToolError && /binary/.test(error.message),
    );
  });
});

Deno.test("readFile() does not answer from a stale line index after a same-size rewrite with the same mtime", async () => {
  await withWorkspace(async (ws) => {
    const path = join(ws, "big.txt");
    await Deno.writeTextFile(path, `${"a".repeat(299)}\n`.repeat(4000));
    const { mtime } = await Deno.stat(path);
    const tools = createTools({ cwd: ws });
    const first = await tools.ReadFile.execute({
      path: "big.txt",
      line: 3000,
      limit: 1,
    });
    assert.equal(first.totalLines, 4000);
    // Same size (1,200,000 bytes), twice as many lines, same mtime.
    await Deno.writeTextFile(path, `${"b".repeat(149)}\n`.repeat(8000));
    await Deno.utime(path, mtime!, mtime!);
    const second = await tools.ReadFile.execute({
      path: "big.txt",
      line: 3000,
      limit: 1,
    });
    assert.equal(second.totalLines, 8000);
    assert.equal(second.content, `${"b".repeat(149)}\n`);
  });
});

Deno.test("readFile() reads a /proc pseudo-file whose stat size is 0", async () => {
  if (Deno.build.os !== "linux") return;
  const tools = createTools({ permissionMode: "allow" });
  const result = await tools.ReadFile.execute({ path: "/proc/self/status" });
  assert.match(result.content, /^Name:/m);
});

Deno.test("readFile() of /proc/self/pagemap answers without reading 256 MB", async () => {
  if (Deno.build.os !== "linux") return;
  const { result, peak } = await childPeak(
    `import { createTools } from "${MOD}";
const tools = createTools({ cwd: Deno.cwd(), permissionMode: "allow" });
let error = "";
try { await tools.ReadFile.execute({ path: "/proc/self/pagemap" }); } catch (e) { error = String(e); }
(globalThis as Record<string, unknown>).result = { error };`,
    [],
  );
  const { error } = result as { error: string };
  assert.match(error, /100 KB|binary/);
  assert.ok(
    peak < 200 * MB,
    `peak RSS ${Math.round(peak / MB)} MB to refuse /proc/self/pagemap`,
  );
});

Deno.test("readFile() model text of a forced 20 MB read of short lines stays near its size", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(join(dir, "short.log"), "a\n".repeat(10 * MB));
    const { result, peak } = await childPeak(
      `import { createTools } from "${MOD}";
const tools = createTools({ cwd: Deno.args[0], permissionMode: "allow" });
const r = await tools.ReadFile.execute({ path: "short.log", force: true });
const text = tools.ReadFile.toModelText(r);
(globalThis as Record<string, unknown>).result = { lines: r.totalLines, chars: text.length };`,
      [dir],
    );
    const { lines } = result as { lines: number };
    assert.equal(lines, 10 * MB);
    assert.ok(
      peak < 400 * MB,
      `peak RSS ${Math.round(peak / MB)} MB to render a 20 MB read`,
    );
  });
});

Deno.test("readFile() with symbol returns exactly its lines, doc comment included, numbered as usual", async () => {
  await withWorkspace(async (ws) => {
    const text =
      "\uFEFFpackage a\r\n\r\n// Serve runs.\r\nfunc (s *Server) Serve() {\r\n\treturn\r\n}\r\n\r\nfunc Other() {}\r\n";
    await Deno.writeTextFile(join(ws, "a.go"), text);
    const t = tools(ws);
    const result = await t.ReadFile.execute({
      path: "a.go",
      symbol: "Server.Serve",
    });
    assert.deepEqual(result, {
      path: "a.go",
      content:
        "// Serve runs.\r\nfunc (s *Server) Serve() {\r\n\treturn\r\n}\r\n",
      startLine: 3,
      endLine: 6,
      totalLines: 8,
      symbol: {
        name: "Server.Serve",
        kind: "method",
        startLine: 3,
        endLine: 6,
      },
    });
    assert.equal(
      t.ReadFile.toModelText(result),
      '3\t// Serve runs.\n4\tfunc (s *Server) Serve() {\n5\t\treturn\n6\t}\n\n(method Server.Serve: lines 3-6 of 8 in "a.go".)',
    );
  });
});

Deno.test("readFile() reads a symbol of a file over the 100 KB full-read limit, and refuses symbol with line or limit", async () => {
  await withWorkspace(async (ws) => {
    const filler = "export const filler = 1;\n".repeat(6000);
    await Deno.writeTextFile(
      join(ws, "big.ts"),
      `${filler}/** Last. */\nexport function last() {}\n`,
    );
    const t = tools(ws);
    const { content, startLine, symbol } = await t.ReadFile.execute({
      path: "big.ts",
      symbol: "last",
    });
    assert.equal(content, "/** Last. */\nexport function last() {}\n");
    assert.equal(startLine, 6001);
    assert.equal(symbol?.name, "last");
    assert.equal(
      await toolErrorMessage(
        t.ReadFile.execute({ path: "big.ts", symbol: "last", line: 3 }),
      ),
      'Cannot read "big.ts": symbol cannot be combined with line or limit; give either the symbol\'s name path, or line and limit',
    );
    assert.match(
      await toolErrorMessage(
        t.ReadFile.execute({ path: "big.ts", symbol: "lst" }),
      ),
      /^Cannot read "big\.ts": no symbol is named "lst"; the nearest names are function last \(lines 6002-6002\)/,
    );
  });
});
