// Black-box contract tests for issue 2 (the package, its CLI entry, ReadFile / WriteFile /
// EditFile behind two permission gates), written from the issue text alone: they use only the
// public API of mod.ts, exactly as the issue spells it.
import assert from "node:assert/strict";
import { join } from "node:path";
import { createTools } from "../mod.ts";
import type { PermissionRequest } from "../mod.ts";
import { recorder, rejectsTool } from "./support/tool_asserts.ts";
import { withDirs } from "./support/workspace.ts";

type Mode = "ask" | "acceptEdits" | "allow" | "readOnly";
type Answer = boolean | "always";

const ROOT_DIR = new URL("..", import.meta.url).pathname;
const MOD_URL = new URL("../mod.ts", import.meta.url).href;
// The child scripts live in a temp folder: point them at the package's import map.
const CONFIG = join(ROOT_DIR, "deno.json");
const encoder = new TextEncoder();

// ---------------------------------------------------------------------------------------------
// ReadFile

Deno.test("ReadFile returns the selected lines with 1-based startLine, endLine and totalLines", async () => {
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

Deno.test("ReadFile full read returns the whole file exactly, CRLF kept", async () => {
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

Deno.test("ReadFile refuses a full read over 100 KB naming the size, file_outline, line/limit and force", async () => {
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

Deno.test("ReadFile model text numbers every line, shortens long lines and gives the next line=", async () => {
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

Deno.test("ReadFile with line and no limit reads at most 2,000 lines; a full read returns them all", async () => {
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

Deno.test("ReadFile line past the end states the line count; line < 1 and limit < 1 are errors", async () => {
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

Deno.test("ReadFile drops a UTF-8 BOM and decodes UTF-16 LE/BE with a BOM", async () => {
  await withDirs(async ({ ws }) => {
    await Deno.writeFile(
      join(ws, "bom.txt"),
      new Uint8Array([0xef, 0xbb, 0xbf, ...encoder.encode("héllo\n")]),
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

Deno.test("ReadFile refuses binary files; an image suggests ImageAnalysis", async () => {
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

Deno.test("ReadFile of a missing file lists similar names; a directory gets its own error", async () => {
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

Deno.test("ReadFile of an empty file is a result with empty content, and the model text says empty", async () => {
  await withDirs(async ({ ws }) => {
    await Deno.writeTextFile(join(ws, "empty.txt"), "");
    const tools = createTools({ cwd: ws });
    const r = await tools.ReadFile.execute({ path: "empty.txt" });
    assert.equal(r.content, "");
    assert.match(tools.ReadFile.toModelText(r), /empty/i);
  });
});

Deno.test("tools have name, description, inputSchema, execute and reject bad input with ToolError", async () => {
  await withDirs(async ({ ws }) => {
    const tools = createTools({ cwd: ws });
    for (
      const name of [
        "ReadFile",
        "WriteFile",
        "EditFile",
        "Shell",
        "Plan",
      ] as const
    ) {
      const tool = tools[name];
      assert.equal(tool.name, name);
      assert.equal(typeof tool.description, "string");
      assert.ok(tool.description.length > 0);
      assert.equal(typeof tool.inputSchema, "object");
      assert.equal(typeof tool.execute, "function");
      assert.equal(typeof tool.toModelText, "function");
    }
    const props = (tool: { inputSchema: unknown }): string[] =>
      Object.keys(
        (tool.inputSchema as { properties: Record<string, unknown> })
          .properties,
      );
    assert.deepEqual(props(tools.ReadFile).sort(), [
      "cwd",
      "force",
      "limit",
      "line",
      "path",
    ]);
    for (const key of ["path", "content", "cwd"]) {
      assert.ok(props(tools.WriteFile).includes(key), key);
    }
    for (const key of ["path", "oldText", "newText", "replaceAll", "cwd"]) {
      assert.ok(props(tools.EditFile).includes(key), key);
    }
    await rejectsTool(tools.ReadFile.execute({ path: 5 } as never));
    await rejectsTool(tools.WriteFile.execute({ path: "a.txt" } as never));
    await rejectsTool(
      tools.EditFile.execute(
        { path: "a.txt", oldText: 1, newText: "x" } as never,
      ),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Gate one: permissionMode

const TABLE: Record<
  Mode,
  Record<
    "readIn" | "readOut" | "writeIn" | "writeOut",
    "yes" | "ask" | "refused"
  >
> = {
  ask: { readIn: "yes", readOut: "ask", writeIn: "ask", writeOut: "ask" },
  acceptEdits: {
    readIn: "yes",
    readOut: "ask",
    writeIn: "yes",
    writeOut: "ask",
  },
  allow: { readIn: "yes", readOut: "yes", writeIn: "yes", writeOut: "yes" },
  readOnly: {
    readIn: "yes",
    readOut: "ask",
    writeIn: "refused",
    writeOut: "refused",
  },
};

Deno.test("permissionMode table: read/write/edit inside and outside, approve true/false/none", async () => {
  await withDirs(async ({ ws, out }) => {
    await Deno.writeTextFile(join(ws, "in.txt"), "inside\n");
    await Deno.writeTextFile(join(out, "out.txt"), "outside\n");
    for (const mode of Object.keys(TABLE) as Mode[]) {
      for (
        const cell of ["readIn", "readOut", "writeIn", "writeOut"] as const
      ) {
        for (
          const op of cell.startsWith("read") ? ["read"] : ["write", "edit"]
        ) {
          const inside = cell.endsWith("In");
          const abs = inside ? join(ws, "in.txt") : join(out, "out.txt");
          const path = inside ? "in.txt" : abs;
          const label = `${mode} ${op} ${inside ? "inside" : "outside"}`;
          const run = (
            approve?: (r: PermissionRequest) => Answer | Promise<Answer>,
          ) => {
            const tools = createTools({
              cwd: ws,
              permissionMode: mode,
              approve,
            });
            if (op === "read") return tools.ReadFile.execute({ path });
            if (op === "write") {
              return tools.WriteFile.execute({ path, content: `${label}\n` });
            }
            return tools.EditFile.execute({
              path,
              oldText: "side",
              newText: "SIDE",
            });
          };
          const reset = async () => {
            await Deno.writeTextFile(join(ws, "in.txt"), "inside\n");
            await Deno.writeTextFile(join(out, "out.txt"), "outside\n");
          };
          const expected = TABLE[mode][cell];
          await reset();
          if (expected === "yes") {
            const rec = recorder(false);
            await run(rec.approve);
            assert.equal(
              rec.calls.length,
              0,
              `${label}: approve must not be called`,
            );
            await reset();
            await run(); // no approve needed either
          } else if (expected === "refused") {
            const rec = recorder(true);
            await rejectsTool(run(rec.approve), inside ? "in.txt" : "out.txt");
            assert.equal(
              rec.calls.length,
              0,
              `${label}: refused without asking`,
            );
            assert.equal(
              await Deno.readTextFile(abs),
              inside ? "inside\n" : "outside\n",
              `${label}: untouched`,
            );
          } else {
            const no = recorder(false);
            await rejectsTool(run(no.approve), inside ? "in.txt" : "out.txt");
            assert.equal(no.calls.length, 1, `${label}: asked once`);
            const request = no.calls[0];
            assert.equal(
              request.tool,
              op === "read"
                ? "ReadFile"
                : op === "write"
                ? "WriteFile"
                : "EditFile",
            );
            assert.equal(request.action, op === "read" ? "read" : "write");
            assert.equal(request.path, abs, label);
            assert.equal(request.outsideWorkspace, !inside, label);
            assert.equal(typeof request.description, "string");
            assert.ok(request.description.length > 0);
            assert.equal(
              await Deno.readTextFile(abs),
              inside ? "inside\n" : "outside\n",
              `${label}: untouched`,
            );
            await rejectsTool(run(), inside ? "in.txt" : "out.txt"); // no approve: asking means refusing
            const yes = recorder(true);
            await run(yes.approve);
            assert.equal(yes.calls.length, 1, label);
            await reset();
            await run(() => true); // a synchronous answer works too
          }
        }
      }
    }
  });
});

Deno.test("outside is decided on real paths: .., absolute, symlinks out, nearest existing parent", async () => {
  await withDirs(async ({ ws, out }) => {
    await Deno.writeTextFile(join(out, "o.txt"), "outside\n");
    await Deno.symlink(out, join(ws, "link"));
    await Deno.symlink(join(out, "o.txt"), join(ws, "file_link.txt"));
    await Deno.mkdir(join(ws, "real"));
    for (
      const path of [
        "../out/o.txt",
        join(out, "o.txt"),
        "link/o.txt",
        "file_link.txt",
      ]
    ) {
      const rec = recorder(false);
      const tools = createTools({
        cwd: ws,
        permissionMode: "acceptEdits",
        approve: rec.approve,
      });
      await rejectsTool(tools.ReadFile.execute({ path }));
      assert.equal(rec.calls.length, 1, path);
      assert.equal(rec.calls[0].outsideWorkspace, true, path);
    }
    for (const path of ["link/new.txt", "link/deeper/newer/x.txt"]) {
      const rec = recorder(false);
      const tools = createTools({
        cwd: ws,
        permissionMode: "acceptEdits",
        approve: rec.approve,
      });
      await rejectsTool(tools.WriteFile.execute({ path, content: "x" }));
      assert.equal(rec.calls.length, 1, path);
      assert.equal(rec.calls[0].outsideWorkspace, true, path);
    }
    assert.deepEqual(
      [...Deno.readDirSync(out)].map((e) => e.name),
      ["o.txt"],
      "nothing written outside",
    );
    // A new file under a real folder inside is inside.
    const rec = recorder(false);
    const tools = createTools({
      cwd: ws,
      permissionMode: "ask",
      approve: rec.approve,
    });
    await rejectsTool(
      tools.WriteFile.execute({ path: "real/sub/new.txt", content: "x" }),
    );
    assert.equal(rec.calls[0].outsideWorkspace, false);
  });
});

Deno.test('"always" inside the workspace covers later writes inside; outside it covers that path only', async () => {
  await withDirs(async ({ ws, out }) => {
    const rec = recorder("always");
    const tools = createTools({
      cwd: ws,
      permissionMode: "ask",
      approve: rec.approve,
    });
    await tools.WriteFile.execute({ path: "a.txt", content: "a\n" });
    await tools.WriteFile.execute({ path: "dir/b.txt", content: "b\n" });
    await tools.EditFile.execute({ path: "a.txt", oldText: "a", newText: "A" });
    assert.equal(rec.calls.length, 1, "one question for the workspace");
    await tools.WriteFile.execute({ path: join(out, "x.txt"), content: "x\n" });
    assert.equal(rec.calls.length, 2, "outside asks again");
    assert.equal(rec.calls[1].outsideWorkspace, true);
    await tools.WriteFile.execute({
      path: join(out, "x.txt"),
      content: "x2\n",
    });
    assert.equal(rec.calls.length, 2, "the same outside path is remembered");
    await tools.WriteFile.execute({ path: join(out, "y.txt"), content: "y\n" });
    assert.equal(rec.calls.length, 3, "another outside path asks again");
    // A fresh tools instance does not inherit the approval.
    const rec2 = recorder(false);
    const fresh = createTools({
      cwd: ws,
      permissionMode: "ask",
      approve: rec2.approve,
    });
    await rejectsTool(
      fresh.WriteFile.execute({ path: "a.txt", content: "z" }),
      "a.txt",
    );
    assert.equal(await Deno.readTextFile(join(ws, "a.txt")), "A\n");
  });
});

Deno.test("a per-call cwd changes how relative paths resolve, not the workspace boundary", async () => {
  await withDirs(async ({ ws, out }) => {
    await Deno.mkdir(join(ws, "sub"));
    await Deno.writeTextFile(join(ws, "sub/a.txt"), "in sub\n");
    await Deno.writeTextFile(join(out, "o.txt"), "outside\n");
    const rec = recorder(false);
    const tools = createTools({
      cwd: ws,
      permissionMode: "acceptEdits",
      approve: rec.approve,
    });
    assert.equal(
      (await tools.ReadFile.execute({ path: "a.txt", cwd: "sub" })).content,
      "in sub\n",
    );
    await tools.WriteFile.execute({
      path: "b.txt",
      content: "b\n",
      cwd: "sub",
    });
    assert.equal(await Deno.readTextFile(join(ws, "sub/b.txt")), "b\n");
    await tools.EditFile.execute({
      path: "b.txt",
      oldText: "b",
      newText: "B",
      cwd: "sub",
    });
    assert.equal(await Deno.readTextFile(join(ws, "sub/b.txt")), "B\n");
    assert.equal(rec.calls.length, 0);
    await rejectsTool(
      tools.ReadFile.execute({ path: "o.txt", cwd: out }),
      "o.txt",
    );
    await rejectsTool(
      tools.WriteFile.execute({ path: "o.txt", content: "x", cwd: out }),
      "o.txt",
    );
    assert.equal(rec.calls.length, 2);
    assert.ok(
      rec.calls.every((c) =>
        c.outsideWorkspace && c.path === join(out, "o.txt")
      ),
    );
    assert.equal(await Deno.readTextFile(join(out, "o.txt")), "outside\n");
  });
});

// ---------------------------------------------------------------------------------------------
// WriteFile

Deno.test("WriteFile creates parent folders, reports created vs overwritten and bytes, keeps the mode", async () => {
  await withDirs(async ({ ws }) => {
    const tools = createTools({ cwd: ws, permissionMode: "acceptEdits" });
    const first = await tools.WriteFile.execute({
      path: "a/b/c/d.txt",
      content: "héllo\n",
    });
    assert.equal(first.created, true);
    assert.equal(first.bytes, 7);
    assert.equal(typeof first.path, "string");
    assert.ok(first.path.endsWith("d.txt"));
    assert.equal(await Deno.readTextFile(join(ws, "a/b/c/d.txt")), "héllo\n");
    await Deno.chmod(join(ws, "a/b/c/d.txt"), 0o750);
    const second = await tools.WriteFile.execute({
      path: "a/b/c/d.txt",
      content: "bye",
    });
    assert.equal(second.created, false);
    assert.equal(second.bytes, 3);
    assert.equal(await Deno.readTextFile(join(ws, "a/b/c/d.txt")), "bye");
    assert.equal(
      (await Deno.stat(join(ws, "a/b/c/d.txt"))).mode! & 0o777,
      0o750,
    );
    assert.deepEqual(
      [...Deno.readDirSync(join(ws, "a/b/c"))].map((e) => e.name),
      ["d.txt"],
      "no temp left",
    );
  });
});

Deno.test("WriteFile refuses a directory path", async () => {
  await withDirs(async ({ ws }) => {
    await Deno.mkdir(join(ws, "folder"));
    const tools = createTools({ cwd: ws, permissionMode: "allow" });
    await rejectsTool(
      tools.WriteFile.execute({ path: "folder", content: "x" }),
      "folder",
    );
    assert.ok((await Deno.stat(join(ws, "folder"))).isDirectory);
  });
});

// ---------------------------------------------------------------------------------------------
// EditFile

Deno.test("EditFile matches literally: $&, $1, $$ in newText are inserted as typed, no regex", async () => {
  await withDirs(async ({ ws }) => {
    await Deno.writeTextFile(join(ws, "p.txt"), "price: X\npattern a.c abc\n");
    const tools = createTools({ cwd: ws, permissionMode: "acceptEdits" });
    const r = await tools.EditFile.execute({
      path: "p.txt",
      oldText: "X",
      newText: "$& $1 $$ $' $`",
    });
    assert.equal(r.replacements, 1);
    assert.equal(typeof r.path, "string");
    const dot = await tools.EditFile.execute({
      path: "p.txt",
      oldText: "a.c",
      newText: "A.C",
      replaceAll: true,
    });
    assert.equal(dot.replacements, 1, "a.c is not a regex");
    assert.equal(
      await Deno.readTextFile(join(ws, "p.txt")),
      "price: $& $1 $$ $' $`\npattern A.C abc\n",
    );
  });
});

Deno.test("EditFile replaceAll replaces every match and reports the count; without it, an error lists lines", async () => {
  await withDirs(async ({ ws }) => {
    const lines = Array.from({ length: 12 }, (_, i) => `row ${i + 1}`);
    lines[1] = lines[6] = lines[10] = "TODO fix";
    const text = lines.join("\n") + "\n";
    await Deno.writeTextFile(join(ws, "t.txt"), text);
    const tools = createTools({ cwd: ws, permissionMode: "acceptEdits" });
    const error = await rejectsTool(
      tools.EditFile.execute({
        path: "t.txt",
        oldText: "TODO fix",
        newText: "done",
      }),
      "t.txt",
      /\b3\b/,
      /\b2\b/,
      /\b7\b/,
      /\b11\b/,
    );
    assert.ok(error.message.includes("replaceAll"), error.message);
    assert.equal(
      await Deno.readTextFile(join(ws, "t.txt")),
      text,
      "untouched after the error",
    );
    const r = await tools.EditFile.execute({
      path: "t.txt",
      oldText: "TODO fix",
      newText: "done",
      replaceAll: true,
    });
    assert.equal(r.replacements, 3);
    assert.equal(
      await Deno.readTextFile(join(ws, "t.txt")),
      text.replaceAll("TODO fix", "done"),
    );
  });
});

Deno.test("EditFile no match shows the closest region with line numbers and names whitespace differences", async () => {
  await withDirs(async ({ ws }) => {
    const text =
      "function a() {\n  return 1;\n}\n\nfunction b() {\n    const total = 2;\n  return total;\n}\n";
    await Deno.writeTextFile(join(ws, "c.ts"), text);
    const tools = createTools({ cwd: ws, permissionMode: "acceptEdits" });
    const ws1 = await rejectsTool(
      tools.EditFile.execute({
        path: "c.ts",
        oldText: "const total = 2;\n    return total;",
        newText: "x",
      }),
      "c.ts",
      /\b6\b/,
      "const total",
    );
    assert.match(ws1.message, /whitespace|indent/i);
    const near = await rejectsTool(
      tools.EditFile.execute({
        path: "c.ts",
        oldText: "const totl = 2;",
        newText: "x",
      }),
      "c.ts",
      /\b6\b/,
    );
    assert.ok(near.message.includes("const total = 2;"), near.message);
    assert.equal(await Deno.readTextFile(join(ws, "c.ts")), text);
  });
});

Deno.test("EditFile errors on oldText === newText and on empty oldText, file untouched", async () => {
  await withDirs(async ({ ws }) => {
    await Deno.writeTextFile(join(ws, "s.txt"), "same\n");
    const tools = createTools({ cwd: ws, permissionMode: "acceptEdits" });
    await rejectsTool(
      tools.EditFile.execute({
        path: "s.txt",
        oldText: "same",
        newText: "same",
      }),
      "s.txt",
    );
    await rejectsTool(
      tools.EditFile.execute({ path: "s.txt", oldText: "", newText: "x" }),
      "s.txt",
    );
    await rejectsTool(
      tools.EditFile.execute({ path: "nope.txt", oldText: "a", newText: "b" }),
      "nope.txt",
    );
    assert.equal(await Deno.readTextFile(join(ws, "s.txt")), "same\n");
  });
});

Deno.test("EditFile keeps CRLF (LF oldText matches, new text written with CRLF), BOM and final newline", async () => {
  await withDirs(async ({ ws }) => {
    const tools = createTools({ cwd: ws, permissionMode: "acceptEdits" });
    await Deno.writeTextFile(join(ws, "crlf.txt"), "one\r\ntwo\r\nthree\r\n");
    await tools.EditFile.execute({
      path: "crlf.txt",
      oldText: "one\ntwo",
      newText: "uno\ndos\nplus",
    });
    assert.equal(
      await Deno.readTextFile(join(ws, "crlf.txt")),
      "uno\r\ndos\r\nplus\r\nthree\r\n",
    );

    const bom = [0xef, 0xbb, 0xbf];
    await Deno.writeFile(
      join(ws, "bom.txt"),
      new Uint8Array([...bom, ...encoder.encode("hello world\n")]),
    );
    await tools.EditFile.execute({
      path: "bom.txt",
      oldText: "world",
      newText: "there",
    });
    assert.deepEqual(
      await Deno.readFile(join(ws, "bom.txt")),
      new Uint8Array([...bom, ...encoder.encode("hello there\n")]),
    );

    await Deno.writeTextFile(join(ws, "nofinal.txt"), "a\nb");
    await tools.EditFile.execute({
      path: "nofinal.txt",
      oldText: "b",
      newText: "c",
    });
    assert.equal(await Deno.readTextFile(join(ws, "nofinal.txt")), "a\nc");
    await Deno.writeTextFile(join(ws, "final.txt"), "a\nb\n");
    await tools.EditFile.execute({
      path: "final.txt",
      oldText: "b",
      newText: "c",
    });
    assert.equal(await Deno.readTextFile(join(ws, "final.txt")), "a\nc\n");
  });
});

Deno.test("EditFile leaves the bytes outside the edit unchanged", async () => {
  await withDirs(async ({ ws }) => {
    const before = "head\t  \nmixed\r\nlf only\nTARGET here\n\ttail  \r\n\n";
    await Deno.writeTextFile(join(ws, "b.txt"), before);
    const tools = createTools({ cwd: ws, permissionMode: "acceptEdits" });
    await tools.EditFile.execute({
      path: "b.txt",
      oldText: "TARGET",
      newText: "goal",
    });
    assert.equal(
      await Deno.readTextFile(join(ws, "b.txt")),
      before.replace("TARGET", "goal"),
    );
  });
});

Deno.test("EditFile returns a unified diff with context", async () => {
  await withDirs(async ({ ws }) => {
    await Deno.writeTextFile(
      join(ws, "d.ts"),
      "const a = 0;\nconst x = 1;\nconst b = 2;\n",
    );
    const tools = createTools({ cwd: ws, permissionMode: "acceptEdits" });
    const r = await tools.EditFile.execute({
      path: "d.ts",
      oldText: "x = 1",
      newText: "x = 42",
    });
    assert.match(r.diff, /^@@ -\d+(,\d+)? \+\d+(,\d+)? @@/m);
    assert.match(r.diff, /^-const x = 1;$/m);
    assert.match(r.diff, /^\+const x = 42;$/m);
    assert.match(r.diff, /^ const a = 0;$/m);
    assert.match(r.diff, /^ const b = 2;$/m);
    assert.equal(typeof tools.EditFile.toModelText(r), "string");
  });
});

Deno.test("EditFile: 20 concurrent edits on distinct markers of one file all land", async () => {
  await withDirs(async ({ ws }) => {
    const text = Array.from({ length: 20 }, (_, i) =>
      `marker-${i}-end`).join("\n") + "\n";
    await Deno.writeTextFile(join(ws, "many.txt"), text);
    const tools = createTools({ cwd: ws, permissionMode: "acceptEdits" });
    const results = await Promise.all(
      Array.from(
        { length: 20 },
        (_, i) =>
          tools.EditFile.execute({
            path: "many.txt",
            oldText: `marker-${i}-end`,
            newText: `done-${i}`,
          }),
      ),
    );
    assert.ok(results.every((r) => r.replacements === 1));
    assert.equal(
      await Deno.readTextFile(join(ws, "many.txt")),
      Array.from({ length: 20 }, (_, i) => `done-${i}`).join("\n") + "\n",
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Gate two, the CLI entry, and "importing starts nothing" (child processes)

/** Runs `deno <args>` with stdin closed, killing it after `limitMs` (a hang check). */
async function runDeno(
  args: string[],
  limitMs = 60_000,
): Promise<{ code: number; stdout: string; stderr: string; elapsed: number }> {
  const started = Date.now();
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT_DIR,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), limitMs);
  try {
    const { code, stdout, stderr } = await child.output();
    const decoder = new TextDecoder();
    return {
      code,
      stdout: decoder.decode(stdout),
      stderr: decoder.decode(stderr),
      elapsed: Date.now() - started,
    };
  } finally {
    clearTimeout(timer);
  }
}

Deno.test("gate two: Deno's write grant limited to <ws>/sub gives a clear ToolError outside it, nothing written", async () => {
  await withDirs(async ({ root, ws }) => {
    await Deno.mkdir(join(ws, "sub"));
    const script = join(root, "child.ts");
    await Deno.writeTextFile(
      script,
      `import { createTools, ToolError } from ${JSON.stringify(MOD_URL)};
const ws = Deno.args[0];
const tools = createTools({ cwd: ws, permissionMode: "allow" });
const inside = await tools.WriteFile.execute({ path: "sub/ok.txt", content: "ok" });
let outcome;
try {
  await tools.WriteFile.execute({ path: "outside_sub.txt", content: "nope" });
  outcome = { wrote: true };
} catch (error) {
  outcome = { toolError: error instanceof ToolError, message: String(error?.message) };
}
console.log(JSON.stringify({ inside: inside.created, outcome }));
`,
    );
    const r = await runDeno([
      "run",
      "--config",
      CONFIG,
      `--allow-read=${ws}`,
      `--allow-write=${join(ws, "sub")}`,
      script,
      ws,
    ]);
    assert.equal(r.code, 0, r.stderr);
    const { inside, outcome } = JSON.parse(r.stdout.trim().split("\n").at(-1)!);
    assert.equal(inside, true);
    assert.equal(outcome.toolError, true, JSON.stringify(outcome));
    const firstLine = outcome.message.split("\n")[0];
    assert.ok(firstLine.includes("outside_sub.txt"), firstLine);
    assert.ok(firstLine.includes("--allow-write"), firstLine);
    await assert.rejects(
      Deno.stat(join(ws, "outside_sub.txt")),
      Deno.errors.NotFound,
    );
    assert.equal(await Deno.readTextFile(join(ws, "sub/ok.txt")), "ok");
  });
});

Deno.test("gate two: a symlink below the grant carries no write, edit or read out of it", async () => {
  await withDirs(async ({ root, ws, out }) => {
    await Deno.mkdir(join(ws, "sub"));
    await Deno.writeTextFile(join(out, "target.txt"), "target\n");
    await Deno.writeTextFile(join(root, "secret.txt"), "secret\n");
    await Deno.symlink(out, join(ws, "sub/link")); // a folder link out of the write grant
    await Deno.symlink(join(root, "secret.txt"), join(ws, "peek.txt")); // a file link out of the read grant
    await Deno.writeTextFile(join(ws, "own.txt"), "own\n");
    // The grants name the workspace through a link (like macOS's /tmp): legit use still works.
    const wsLink = join(root, "ws_link");
    await Deno.symlink(ws, wsLink);
    const script = join(root, "child.ts");
    await Deno.writeTextFile(
      script,
      `import { createTools, ToolError } from ${JSON.stringify(MOD_URL)};
const tools = createTools({ cwd: Deno.args[0], permissionMode: "allow" });
async function attempt(call) {
  try {
    return { resolved: JSON.stringify(await call()) };
  } catch (error) {
    return { toolError: error instanceof ToolError, message: String(error?.message) };
  }
}
console.log(JSON.stringify({
  ownRead: await attempt(() => tools.ReadFile.execute({ path: "own.txt" })),
  ownWrite: await attempt(() => tools.WriteFile.execute({ path: "sub/ok.txt", content: "ok" })),
  write: await attempt(() => tools.WriteFile.execute({ path: "sub/link/new.txt", content: "escaped" })),
  edit: await attempt(() => tools.EditFile.execute({ path: "sub/link/target.txt", oldText: "target", newText: "escaped" })),
  read: await attempt(() => tools.ReadFile.execute({ path: "peek.txt" })),
}));
`,
    );
    const r = await runDeno([
      "run",
      "--config",
      CONFIG,
      `--allow-read=${wsLink},${out}`,
      `--allow-write=${join(wsLink, "sub")}`,
      script,
      wsLink,
    ]);
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse(r.stdout.trim().split("\n").at(-1)!);
    assert.ok(
      report.ownRead.resolved?.includes("own"),
      JSON.stringify(report.ownRead),
    );
    assert.ok(report.ownWrite.resolved, JSON.stringify(report.ownWrite));
    assert.equal(await Deno.readTextFile(join(ws, "sub/ok.txt")), "ok");
    for (
      const [key, flag] of [["write", "--allow-write"], [
        "edit",
        "--allow-write",
      ], ["read", "--allow-read"]]
    ) {
      assert.equal(
        report[key].toolError,
        true,
        `${key}: ${JSON.stringify(report[key])}`,
      );
      assert.ok(
        report[key].message.split("\n")[0].includes(flag),
        report[key].message,
      );
    }
    assert.ok(!report.read.message.includes("secret\n"));
    assert.deepEqual([...Deno.readDirSync(out)].map((e) => e.name), [
      "target.txt",
    ], "nothing written outside");
    assert.equal(await Deno.readTextFile(join(out, "target.txt")), "target\n");
  });
});

Deno.test("importing mod.ts and calling createTools start nothing: a script using ReadFile exits on its own", async () => {
  await withDirs(async ({ root, ws }) => {
    await Deno.writeTextFile(join(ws, "hello.txt"), "hello from the child\n");
    const script = join(root, "exits.ts");
    await Deno.writeTextFile(
      script,
      `import { createTools } from ${JSON.stringify(MOD_URL)};
const tools = createTools({ cwd: Deno.args[0] });
const r = await tools.ReadFile.execute({ path: "hello.txt" });
console.log(r.content.trim());
`,
    );
    const r = await runDeno(["run", "--config", CONFIG, "-A", script, ws]);
    assert.equal(r.code, 0, `did not exit on its own (stderr: ${r.stderr})`);
    assert.equal(r.stdout.trim(), "hello from the child");
  });
});

Deno.test("deno run -A mod.ts --help prints usage; --version prints the version", async () => {
  const { version } = JSON.parse(
    await Deno.readTextFile(join(ROOT_DIR, "deno.json")),
  );
  const [help, ver] = await Promise.all([
    runDeno(["run", "-A", "mod.ts", "--help"]),
    runDeno(["run", "-A", "mod.ts", "--version"]),
  ]);
  assert.equal(help.code, 0, help.stderr);
  assert.match(help.stdout, /usage/i);
  assert.equal(ver.code, 0, ver.stderr);
  assert.ok(ver.stdout.includes(version), ver.stdout);
  assert.equal(version, "0.1.0");
});
