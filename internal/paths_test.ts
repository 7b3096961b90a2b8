import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { physicalPath, resolvePath } from "./paths.ts";
import { withDirs } from "../tests/support/workspace.ts";
import { ToolError } from "./tool_error.ts";

Deno.test("resolvePath() reads ~ and ~/ as the home folder, other tildes as names", () => {
  const home = Deno.env.get("HOME")!;
  assert.equal(resolvePath("/w", "~", "ReadFile"), home);
  assert.equal(resolvePath("/w", "~/a.txt", "ReadFile"), join(home, "a.txt"));
  assert.equal(resolvePath("/w", "~user/a", "ReadFile"), "/w/~user/a");
  assert.equal(resolvePath("/w", "a/~/b", "ReadFile"), "/w/a/~/b");
});

Deno.test("resolvePath() reads file: URIs in any case and with one, two or three slashes", () => {
  for (
    const uri of [
      "file:///x/a.txt",
      "FILE:///x/a.txt",
      "File:/x/a.txt",
      "file:/x/a.txt",
      "file://localhost/x/a.txt",
    ]
  ) {
    assert.equal(resolvePath("/w", uri, "WriteFile"), "/x/a.txt", uri);
  }
  // Not a URI: a name with a colon stays a relative path.
  assert.equal(resolvePath("/w", "file:a.txt", "WriteFile"), "/w/file:a.txt");
});

Deno.test("resolvePath() refuses empty paths and NUL bytes", () => {
  assert.throws(() => resolvePath("/w", "", "ReadFile"), ToolError);
  assert.throws(() => resolvePath("/w", "a\0b", "ReadFile"), ToolError);
});

Deno.test("physicalPath() follows a symlink before the '..' after it, as the OS does", async () => {
  await withDirs(async ({ ws, out }) => {
    await Deno.mkdir(join(out, "dir"));
    await Deno.mkdir(join(ws, "sub"));
    await Deno.symlink(join(out, "dir"), join(ws, "link"));
    // `link/..` is the parent of the link's target, not the workspace.
    assert.equal(await physicalPath(`${ws}/link/..`), out);
    assert.equal(await physicalPath(`${ws}/link/../x.txt`), join(out, "x.txt"));
    assert.equal(await physicalPath(`${ws}/link/./../..`), dirname(out));
    // A real folder's `..` is its parent; no `..` is the real path.
    assert.equal(await physicalPath(`${ws}/sub/../a.txt`), join(ws, "a.txt"));
    assert.equal(
      await physicalPath(`${ws}/link/new.txt`),
      join(out, "dir/new.txt"),
    );
    assert.equal(await physicalPath(`${ws}//link/`), join(out, "dir"));
  });
});
