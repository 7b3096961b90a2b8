// file_outline through createTools(), as issue 4 states it: the outline text
// of a file, the default cap on a huge listing, and what it sees after EditFile.
import assert from "node:assert/strict";
import { createTools } from "../../mod.ts";
import {
  manyFunctions,
  TS_EXPECTED,
  TS_SAMPLE,
} from "../../tests/support/outline_samples.ts";
import { withWorkspace, writeFiles } from "../../tests/support/workspace.ts";

const FIXTURES = new URL("../../tests/fixtures/outline/", import.meta.url)
  .pathname;

/** Runs `fn` in a fresh workspace holding `files`. */
function withFiles(
  files: Record<string, string>,
  fn: (dir: string) => Promise<void>,
): Promise<void> {
  return withWorkspace(async (dir) => {
    await writeFiles(dir, files);
    await fn(dir);
  });
}

Deno.test("file_outline takes { path } and outlines the specification's example file", async () => {
  const tools = createTools({ cwd: FIXTURES, permissionMode: "readOnly" });
  const text = await tools.file_outline.execute({
    path: "src/shared/schema.ts",
  });
  assert.ok(
    text.startsWith(
      "File: src/shared/schema.ts\nLanguage: TypeScript\nTotal lines: 585\n─── Symbols ───\n",
    ),
  );
  assert.ok(
    text.endsWith(
      "function emptyAgent (lines 46-48)  // Creates an empty agent description.",
    ),
  );
});

Deno.test("file_outline returns the outline text, read-only or by default, and names a missing file", async () => {
  await withFiles({ "src/sample.ts": TS_SAMPLE }, async (dir) => {
    const tools = createTools({ cwd: dir, permissionMode: "readOnly" });
    const text = await tools.file_outline.execute({ path: "src/sample.ts" });
    assert.equal(typeof text, "string");
    assert.equal(text.trimEnd(), TS_EXPECTED);
    const defaults = createTools({ cwd: dir });
    assert.equal(
      (await defaults.file_outline.execute({ path: "src/sample.ts" }))
        .trimEnd(),
      TS_EXPECTED,
    );
    await assert.rejects(
      () => tools.file_outline.execute({ path: "nope.ts" }),
      (error: Error) => /nope\.ts/.test(error.message),
    );
  });
});

Deno.test("file_outline caps a listing of 3,000 symbols by default and says how many were left out", async () => {
  await withFiles({ "big.ts": manyFunctions(3000) }, async (dir) => {
    const tools = createTools({ cwd: dir, permissionMode: "readOnly" });
    const text = await tools.file_outline.execute({ path: "big.ts" });
    const listed = text.split("\n").filter((l) => /^function fn\d+ /.test(l));
    assert.ok(listed.length > 0 && listed.length < 3000, String(listed.length));
    assert.equal(listed[0], "function fn0 (lines 1-3)");
    const last = text.trimEnd().split("\n").at(-1)!;
    assert.ok(last.includes(String(3000 - listed.length)), last);
  });
});

Deno.test("file_outline sees an EditFile change made through the same tools", async () => {
  await withFiles({ "a.ts": "export function alpha() {}\n" }, async (dir) => {
    const tools = createTools({ cwd: dir, permissionMode: "allow" });
    assert.match(
      await tools.file_outline.execute({ path: "a.ts" }),
      /function alpha \(line 1\)/,
    );
    await tools.EditFile.execute({
      path: "a.ts",
      oldText: "alpha",
      newText: "omega",
    });
    const text = await tools.file_outline.execute({ path: "a.ts" });
    assert.match(text, /^function omega \(line 1\)$/m);
    assert.doesNotMatch(text, /alpha/);
  });
});
