import assert from "node:assert/strict";
import { join } from "node:path";
import { createTools, ToolError } from "../../mod.ts";
import { withDirs, withWorkspace } from "../../tests/support/workspace.ts";
import {
  recorder,
  rejectsTool,
  swapThenApprove,
} from "../../tests/support/tool_asserts.ts";
import { exists } from "../../internal/exists.ts";

function tools(ws: string) {
  return createTools({ cwd: ws, permissionMode: "allow" });
}

async function names(folder: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(folder)) found.push(entry.name);
  return found.sort();
}

Deno.test("writeFile() creates parent folders and reports created and bytes", async () => {
  await withWorkspace(async (ws) => {
    const t = tools(ws);
    const r = await t.WriteFile.execute({
      path: "a/b/c.txt",
      content: "héllo\n",
    });
    assert.deepEqual(r, {
      path: join("a", "b", "c.txt"),
      created: true,
      bytes: 7,
    });
    assert.equal(await Deno.readTextFile(join(ws, "a/b/c.txt")), "héllo\n");
    const again = await t.WriteFile.execute({
      path: "a/b/c.txt",
      content: "x",
    });
    assert.equal(again.created, false);
    assert.equal(await Deno.readTextFile(join(ws, "a/b/c.txt")), "x");
    assert.match(
      t.WriteFile.toModelText(again),
      /Overwrote "a\/b\/c.txt" \(1 bytes\)/,
    );
    assert.deepEqual(await names(join(ws, "a/b")), ["c.txt"]);
  });
});

Deno.test("writeFile() keeps an existing file's mode", {
  ignore: Deno.build.os === "windows",
}, async () => {
  await withWorkspace(async (ws) => {
    const path = join(ws, "run.sh");
    await Deno.writeTextFile(path, "echo old\n");
    await Deno.chmod(path, 0o751);
    await tools(ws).WriteFile.execute({
      path: "run.sh",
      content: "echo new\n",
    });
    assert.equal((await Deno.stat(path)).mode! & 0o777, 0o751);
    assert.equal(await Deno.readTextFile(path), "echo new\n");
  });
});

Deno.test("writeFile() refuses a directory path and a file used as a folder", async () => {
  await withWorkspace(async (ws) => {
    await Deno.mkdir(join(ws, "dir"));
    await Deno.writeTextFile(join(ws, "file"), "keep");
    const t = tools(ws);
    await assert.rejects(
      t.WriteFile.execute({ path: "dir", content: "x" }),
      (e) => e instanceof ToolError && /is a directory/.test(e.message),
    );
    await assert.rejects(
      t.WriteFile.execute({ path: "file/inner.txt", content: "x" }),
      (e) => e instanceof ToolError && /file\/inner.txt/.test(e.message),
    );
    assert.equal(await Deno.readTextFile(join(ws, "file")), "keep");
    assert.ok((await Deno.stat(join(ws, "dir"))).isDirectory);
  });
});

Deno.test(
  "writeFile() through a symlink replaces the target and keeps the link",
  {
    ignore: Deno.build.os === "windows",
  },
  async () => {
    await withWorkspace(async (ws) => {
      await Deno.writeTextFile(join(ws, "real.txt"), "old");
      await Deno.symlink("real.txt", join(ws, "link.txt"));
      await tools(ws).WriteFile.execute({ path: "link.txt", content: "new" });
      assert.ok((await Deno.lstat(join(ws, "link.txt"))).isSymlink);
      assert.equal(await Deno.readTextFile(join(ws, "real.txt")), "new");
    });
  },
);

Deno.test("writeFile() removes orphaned temp files of dead writers in its folder", async () => {
  await withWorkspace(async (ws) => {
    const dead = ".a.txt.fello-tmp-999999999-abc123"; // no such process
    const ours = `.b.txt.fello-tmp-${Deno.pid}-zz9`; // ours, not in flight
    const live = `.c.txt.fello-tmp-${Deno.ppid}-keep1`; // a running process
    for (const name of [dead, ours, live, "notes.fello-tmp-x"]) {
      await Deno.writeTextFile(join(ws, name), "partial");
    }
    await tools(ws).WriteFile.execute({ path: "a.txt", content: "whole" });
    const left = await names(ws);
    assert.ok(!left.includes(dead));
    assert.ok(!left.includes(ours));
    assert.ok(left.includes(live));
    assert.ok(left.includes("notes.fello-tmp-x"));
    assert.ok(left.includes("a.txt"));
  });
});

Deno.test("writeFile() serializes concurrent writes of one file", async () => {
  await withWorkspace(async (ws) => {
    const t = tools(ws);
    const contents = Array.from(
      { length: 20 },
      (_, i) => `${i}`.repeat(10_000),
    );
    const results = await Promise.all(
      contents.map((content) =>
        t.WriteFile.execute({ path: "a.txt", content })
      ),
    );
    assert.equal(results.filter((r) => r.created).length, 1);
    assert.ok(contents.includes(await Deno.readTextFile(join(ws, "a.txt"))));
    assert.deepEqual(await names(ws), ["a.txt"]);
  });
});

Deno.test("writeFile() refuses a file swapped for a symlink while its approval was pending, naming where it leads now", async () => {
  await withDirs(async ({ ws, out }) => {
    const outside = join(out, "o.txt");
    await Deno.writeTextFile(outside, "ORIGINAL\n");
    const file = join(ws, "a.txt");
    await Deno.writeTextFile(file, "a\n");
    const t = createTools({
      cwd: ws,
      permissionMode: "ask",
      approve: swapThenApprove(file, outside),
    });
    await assert.rejects(
      t.WriteFile.execute({ path: "a.txt", content: "W\n" }),
      (error) => {
        assert.ok(error instanceof ToolError);
        assert.equal(
          error.message,
          `Did not write "a.txt": it changed while the call waited and now leads to "${outside}" (outside the workspace), not to "${file}" as when it was authorized (a symlink was made or repointed); nothing was done. Find out what replaced it before you try again: a new call asks about the new target`,
        );
        return true;
      },
    );
    assert.equal(await Deno.readTextFile(outside), "ORIGINAL\n");
  });
});

Deno.test("writeFile() asks about a path through a symlinked folder out of the workspace as its real target", async () => {
  await withDirs(async ({ ws, out }) => {
    await Deno.symlink(out, join(ws, "link"));
    const { calls: asked, approve } = recorder(true);
    const t = createTools({
      cwd: ws,
      permissionMode: "acceptEdits",
      approve,
    });
    await t.WriteFile.execute({ path: "link/new.txt", content: "x" });
    assert.deepEqual(asked, [{
      tool: "WriteFile",
      action: "write",
      path: join(out, "new.txt"),
      outsideWorkspace: true,
      description: `Write 1 bytes to "${join("link", "new.txt")}" (really "${
        join(out, "new.txt")
      }")`,
    }]);
    assert.equal(await Deno.readTextFile(join(out, "new.txt")), "x");
  });
});

Deno.test("writeFile() reports created, overwritten and bytes, keeps the mode and leaves no temp file", async () => {
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

Deno.test("writeFile() leaves a directory in place when refusing its path", async () => {
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

Deno.test("writeFile() replaces a dangling symlink or a hard link to an outside file, not the outside file", async () => {
  await withDirs(async ({ ws, out }) => {
    const outside = join(out, "o.txt");
    await Deno.writeTextFile(outside, "ORIGINAL\n");
    await Deno.link(outside, join(ws, "hard.txt"));
    await Deno.symlink(join(out, "new.txt"), join(ws, "dangling.txt"));
    const tools = createTools({ cwd: ws, permissionMode: "acceptEdits" });
    await tools.WriteFile.execute({ path: "hard.txt", content: "W\n" });
    await tools.EditFile.execute({
      path: "hard.txt",
      oldText: "W",
      newText: "E",
    });
    await tools.WriteFile.execute({ path: "dangling.txt", content: "W\n" });
    assert.equal(await Deno.readTextFile(outside), "ORIGINAL\n");
    assert.equal(await exists(join(out, "new.txt")), false);
    assert.equal(await Deno.readTextFile(join(ws, "hard.txt")), "E\n");
    assert.equal(
      (await Deno.lstat(join(ws, "dangling.txt"))).isSymlink,
      false,
    );
  });
});

Deno.test("writeFile() and editFile() refuse a call whose signal is already aborted", async () => {
  await withWorkspace(async (ws) => {
    await Deno.writeTextFile(join(ws, "a.txt"), "old\n");
    const tools = createTools({ cwd: ws, permissionMode: "allow" });
    const signal = AbortSignal.abort();
    await assert.rejects(
      tools.Shell.execute({ command: "true" }, { signal }),
      ToolError,
    );
    await assert.rejects(
      tools.WriteFile.execute({ path: "a.txt", content: "new\n" }, {
        signal,
      }),
      ToolError,
    );
    await assert.rejects(
      tools.EditFile.execute(
        { path: "a.txt", oldText: "old", newText: "new" },
        { signal },
      ),
      ToolError,
    );
    assert.equal(await Deno.readTextFile(join(ws, "a.txt")), "old\n");
  });
});

Deno.test("writeFile() and editFile() handle a file name of 230 bytes", async () => {
  await withWorkspace(async (ws) => {
    const name = `${"n".repeat(226)}.txt`;
    const tools = createTools({ cwd: ws, permissionMode: "acceptEdits" });
    await Deno.writeTextFile(join(ws, name), "old\n"); // a valid name
    await tools.EditFile.execute({
      path: name,
      oldText: "old",
      newText: "edited",
    });
    assert.equal(await Deno.readTextFile(join(ws, name)), "edited\n");
    await tools.WriteFile.execute({ path: name, content: "new\n" });
    assert.equal(await Deno.readTextFile(join(ws, name)), "new\n");
  });
});

Deno.test("writeFile() refuses a path ending in a slash instead of writing a file", async () => {
  await withWorkspace(async (ws) => {
    const tools = createTools({ cwd: ws, permissionMode: "acceptEdits" });
    await assert.rejects(
      tools.WriteFile.execute({ path: "notes/", content: "x" }),
      ToolError,
    );
    await assert.rejects(Deno.stat(join(ws, "notes")), Deno.errors.NotFound);
  });
});

Deno.test('writeFile() "~/notes.txt" does not create a folder named "~"', async () => {
  await withWorkspace(async (ws) => {
    const tools = createTools({ cwd: ws, permissionMode: "acceptEdits" });
    // Expanded, the path is outside the workspace: asked, and refused here
    // (no approver). Nothing may be written in the home folder or in ws.
    await assert.rejects(
      tools.WriteFile.execute({ path: "~/notes.txt", content: "x\n" }),
      ToolError,
    );
    await assert.rejects(Deno.stat(join(ws, "~")), Deno.errors.NotFound);
  });
});

Deno.test("writeFile() refuses a named pipe instead of replacing it with a file", async () => {
  await withWorkspace(async (ws) => {
    const fifo = join(ws, "pipe");
    const made = await new Deno.Command("mkfifo", { args: [fifo] }).output();
    assert.ok(made.success);
    const tools = createTools({ cwd: ws, permissionMode: "allow" });
    await assert.rejects(
      tools.WriteFile.execute({ path: "pipe", content: "x\n" }),
      (error: unknown) =>
        error instanceof ToolError && /regular file/.test(error.message),
    );
    assert.equal((await Deno.lstat(fifo)).isFile, false, "still a FIFO");
  });
});
