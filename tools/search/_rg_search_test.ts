// search() on ripgrep: the same matches, order and result shape as the
// in-process scan, the counts ripgrep cannot give left out, and the
// in-process scan for a regex ripgrep cannot take.
import assert from "node:assert/strict";
import { ignoreWithout } from "../../tests/support/has.ts";
import { withWorkspace, writeFiles } from "../../tests/support/workspace.ts";
import { contextOf } from "../context_of.ts";
import { createTools } from "../create_tools.ts";
import type { SearchInput, SearchResult } from "./search.ts";
import { createSearch } from "./search.ts";

/** The same search on ripgrep and in-process. */
async function both(
  cwd: string,
  input: SearchInput,
): Promise<{ rg: SearchResult; inProcess: SearchResult }> {
  const context = contextOf(createTools({ cwd, permissionMode: "readOnly" }))!;
  const [rg, inProcess] = await Promise.all([
    createSearch(context).execute(input),
    createSearch(context, { ripgrep: false }).execute(input),
  ]);
  return { rg, inProcess };
}

const FILES = {
  ".gitignore": "dist/\n*.log\n",
  ".git/info/exclude": "*.secret\n",
  ".git/HEAD": "needle in .git\n",
  "node_modules/x/index.js": "needle in node_modules\n",
  "dist/out.js": "needle ignored\n",
  "debug.log": "needle ignored\n",
  "key.secret": "needle excluded\n",
  ".hidden/a.txt": "needle hidden but searched\n",
  "src/a.ts": "const needle = 1;\nNEEDLE();\n",
  "src/a_test.ts": "needle in a test\n",
  "src/deep/b.ts": `${"x".repeat(300)} needle ${"y".repeat(300)}\n`,
  "src/crlf.txt": "needle\r\nsecond needle\r\n",
  "b.md": "needle é\n",
  "bin.dat": new Uint8Array([110, 101, 101, 100, 108, 101, 0, 1, 2]),
  ".ignore": "b.md\n",
};

Deno.test({
  name:
    "search() on ripgrep answers the matches of the in-process scan, in the same order",
  ignore: ignoreWithout("rg"),
  fn: async () => {
    await withWorkspace(async (cwd) => {
      await writeFiles(cwd, FILES);
      const inputs: SearchInput[] = [
        { pattern: "needle" },
        { pattern: "NEEDLE", caseSensitive: false },
        { pattern: "needle", glob: "*.ts" },
        { pattern: "needle", glob: "!*_test.ts" },
        { pattern: "needle", glob: "deep/*.ts", path: "src" },
        { pattern: "^second needle$", regex: true },
        { pattern: "\\bneedle\\b", regex: true, path: "src" },
        { pattern: "(?i)const\\s+NEEDLE", regex: true },
        { pattern: "needle", maxResults: 3 },
        { pattern: "[\\w]+ \\W", regex: true },
        { pattern: "le\\b", regex: true, caseSensitive: false },
      ];
      for (const input of inputs) {
        const { rg, inProcess } = await both(cwd, input);
        assert.deepEqual(rg.matches, inProcess.matches, JSON.stringify(input));
        assert.equal(rg.truncated, inProcess.truncated);
        assert.equal(
          rg.filesSearched,
          undefined,
          "ripgrep does not count them",
        );
        assert.equal(rg.binaryFiles, 0);
        assert.equal(rg.path, inProcess.path);
      }
    });
  },
});

Deno.test({
  name:
    "search() on ripgrep searches a workspace inside a folder its repository ignores, as the in-process scan does",
  ignore: ignoreWithout("rg"),
  fn: async () => {
    await withWorkspace(async (dir) => {
      await writeFiles(dir, {
        ".git/HEAD": "ref: refs/heads/main\n",
        // Rules that ignore the workspace itself do not apply inside it.
        ".gitignore": "data/\ndist/\n",
        "data/pkg/a.ts": "const needle = 1;\n",
        "data/pkg/dist/b.ts": "needle();\n",
      });
      const { rg, inProcess } = await both(`${dir}/data/pkg`, {
        pattern: "needle",
      });
      assert.deepEqual(
        inProcess.matches.map((m) => m.path),
        ["a.ts", "dist/b.ts"],
      );
      assert.deepEqual(rg.matches, inProcess.matches);
    });
  },
});

Deno.test({
  name: "search() on ripgrep scans in-process for a regex ripgrep cannot take",
  ignore: ignoreWithout("rg"),
  fn: async () => {
    await withWorkspace(async (cwd) => {
      await writeFiles(cwd, {
        "a.txt": "foobar\nfoobaz\n",
        "b.txt": "héllo\n",
      });
      const ahead = await both(cwd, { pattern: "foo(?=baz)", regex: true });
      assert.deepEqual(ahead.rg.matches.map((m) => m.line), [2]);
      // The in-process scan ran: it counts the files.
      assert.equal(ahead.rg.filesSearched, 2);
      const unicode = await both(cwd, { pattern: "h.llo", regex: true });
      assert.deepEqual(unicode.rg.matches, unicode.inProcess.matches);
    });
  },
});

Deno.test({
  name:
    "search() on ripgrep says it searched with ripgrep when nothing matches",
  ignore: ignoreWithout("rg"),
  fn: async () => {
    await withWorkspace(async (cwd) => {
      await writeFiles(cwd, { "a.txt": "nothing here\n" });
      const tools = createTools({ cwd, permissionMode: "readOnly" });
      const result = await tools.search.execute({ pattern: "absent" });
      assert.equal(
        tools.search.toModelText(result),
        'No matches for "absent" in the workspace (searched with ripgrep)',
      );
    });
  },
});
