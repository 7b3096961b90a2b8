// search(): literal and regex search scanned in-process (walk order, .gitignore,
// binary files, globs, long and non-ASCII lines, counts, permissions and grants).
import assert from "node:assert/strict";
import { join } from "node:path";
import { ToolContext } from "../context.ts";
import { createLocalFiles } from "../local_files.ts";
import { createLocalProcesses } from "../shell/local_processes.ts";
import { createTools, type Tools } from "../create_tools.ts";
import { contextOf } from "../context_of.ts";
import {
  withDirs,
  withWorkspace,
  writeFiles,
} from "../../tests/support/workspace.ts";
import { utf16WithBom } from "../../tests/support/utf16.ts";
import { runDeno } from "../../tests/support/run_deno.ts";
import { recorder } from "../../tests/support/tool_asserts.ts";
import { createSearch } from "./search.ts";
import { ToolError } from "../../internal/tool_error.ts";
import { childPeak, MB } from "../../tests/support/child_peak.ts";

/** Writes `files` (relative path -> content) under a new temp folder. */
async function workspace(
  files: Record<string, string | Uint8Array>,
): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "search_test_" });
  await writeFiles(root, files);
  return root;
}

/**
 * The tools' search, scanning in-process as this file tests it, whether or
 * not ripgrep is installed (_rg_search_test.ts tests the search on ripgrep).
 */
function inProcess(tools: Tools): Pick<Tools, "search"> {
  return { search: createSearch(contextOf(tools)!, { ripgrep: false }) };
}

function lines(text: string): string[] {
  return text.split("\n");
}

Deno.test("search() finds literal text case-sensitively as path:line: text", async () => {
  const root = await workspace({
    "src/a.ts": "const a = 1;\nfunction loadUser() {}\nLOADUSER();\n",
    "src/b.py": "x = 1\n# loadUser here too\n",
    "README.md": "a.b c\naxb\n",
  });
  try {
    const tools = inProcess(
      createTools({ cwd: root, permissionMode: "readOnly" }),
    );
    const result = await tools.search.execute({ pattern: "loadUser" });
    assert.deepEqual(lines(tools.search.toModelText(result)), [
      "src/a.ts:2: function loadUser() {}",
      "src/b.py:2: # loadUser here too",
    ]);
    assert.equal(result.truncated, false);
    assert.equal(result.filesSearched, 3);
    // Regex characters are literal unless regex is set.
    const dot = await tools.search.execute({ pattern: "a.b" });
    assert.deepEqual(dot.matches, [{
      path: "README.md",
      line: 1,
      text: "a.b c",
    }]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("search() ignores case and runs regexes on request", async () => {
  const root = await workspace({
    "a.ts": "function loadUser() {}\nLOADUSER();\nfunction   loadAll() {}\n",
  });
  try {
    const tools = inProcess(
      createTools({ cwd: root, permissionMode: "readOnly" }),
    );
    const folded = await tools.search.execute({
      pattern: "loaduser",
      caseSensitive: false,
    });
    assert.deepEqual(folded.matches.map((m) => m.line), [1, 2]);
    const regex = await tools.search.execute({
      pattern: "function\\s+load\\w*",
      regex: true,
    });
    assert.deepEqual(regex.matches.map((m) => m.line), [1, 3]);
    const inline = await tools.search.execute({
      pattern: "(?i)^loaduser",
      regex: true,
    });
    assert.deepEqual(inline.matches.map((m) => m.line), [2]);
    const named = await tools.search.execute({
      pattern: "(?P<verb>load)All",
      regex: true,
    });
    assert.deepEqual(named.matches.map((m) => m.line), [3]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("search() rejects an invalid regex with a ToolError that says what to do", async () => {
  const tools = inProcess(
    createTools({ cwd: Deno.cwd(), permissionMode: "readOnly" }),
  );
  await assert.rejects(
    () => tools.search.execute({ pattern: "load(", regex: true }),
    (error: Error) => {
      assert.ok(error instanceof ToolError);
      assert.match(error.message, /Cannot search for "load\(":/);
      assert.match(error.message, /"regex": false/);
      return true;
    },
  );
  await assert.rejects(
    () => tools.search.execute({ pattern: "" }),
    /Invalid input for search: "pattern"/,
  );
  await assert.rejects(
    () => tools.search.execute({ pattern: "x", maxResults: 5000 }),
    /"maxResults"/,
  );
});

Deno.test("search() stops a regex stuck backtracking with a ToolError naming the file", async () => {
  const root = await workspace({
    "a.txt": "fine\n",
    // About 2.5 s of backtracking (see _regex_scanner_test.ts).
    "b/stuck.txt": `${"a".repeat(28)}\n`,
  });
  try {
    const context = new ToolContext({
      workspace: root,
      permissionMode: "readOnly",
      files: createLocalFiles(),
      processes: createLocalProcesses(),
    });
    const search = createSearch(context, {
      regexBudgetMs: 1_000,
      ripgrep: false,
    });
    await assert.rejects(
      () => search.execute({ pattern: "(?=a)(a|a)*b", regex: true }),
      (error: Error) => {
        assert.ok(error instanceof ToolError);
        assert.match(
          error.message,
          /^Search for "\(\?=a\)\(a\|a\)\*b" stopped: the regular expression spent 1 s on one part of "b\/stuck\.txt" without getting through it/,
        );
        assert.match(error.message, /"regex": false/);
        return true;
      },
    );
    // Asked again, it fails at that file at once, without another worker;
    // leaving the file out, it runs. Timed on the file alone: a workspace
    // search spawns a worker for a.txt (100-500 ms on a loaded machine while
    // the stuck match still burns a core). A re-run could not fail before its
    // 1 s budget, so a failure sooner is the remembered one.
    const started = performance.now();
    await assert.rejects(
      () =>
        search.execute({
          pattern: "(?=a)(a|a)*b",
          regex: true,
          path: "b/stuck.txt",
        }),
      /spent 1 s on one part of "b\/stuck\.txt"/,
    );
    const retried = performance.now() - started;
    assert.ok(retried < 1_000, `retry took ${Math.round(retried)} ms`);
    await assert.rejects(
      () => search.execute({ pattern: "(?=a)(a|a)*b", regex: true }),
      /spent 1 s on one part of "b\/stuck\.txt"/,
    );
    const narrowed = await search.execute({
      pattern: "(?=a)(a|a)*b",
      regex: true,
      glob: "!stuck.txt",
    });
    assert.deepEqual(narrowed.matches, []);
    assert.equal(narrowed.filesSearched, 1);
    // Once the file has changed, the pattern runs on it again.
    await Deno.writeTextFile(join(root, "b/stuck.txt"), "ab\n");
    const fixed = await search.execute({
      pattern: "(?=a)(a|a)*b",
      regex: true,
    });
    assert.deepEqual(fixed.matches, [{
      path: "b/stuck.txt",
      line: 1,
      text: "ab",
    }]);
    // Other searches run as usual.
    const result = await search.execute({ pattern: "^f\\w+", regex: true });
    assert.deepEqual(result.matches, [{
      path: "a.txt",
      line: 1,
      text: "fine",
    }]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("search() skips .git, node_modules, binary and gitignored files", async () => {
  const root = await workspace({
    ".git/config": "needle\n",
    ".gitignore": "dist/\n*.log\n!keep.log\n",
    "node_modules/pkg/index.js": "needle\n",
    "dist/out.js": "needle\n",
    "debug.log": "needle\n",
    "keep.log": "needle\n",
    // A PNG signature's start, two NULs, then "needle".
    "image.png": new Uint8Array([
      0x89,
      0x50,
      0,
      0,
      ...new TextEncoder().encode("needle"),
    ]),
    "sub/.gitignore": "secret.txt\n",
    "sub/secret.txt": "needle\n",
    "sub/open.txt": "needle\n",
    "top.txt": "needle\n",
  });
  try {
    await Deno.symlink(join(root, "top.txt"), join(root, "link.txt"));
    const tools = inProcess(
      createTools({ cwd: root, permissionMode: "readOnly" }),
    );
    const result = await tools.search.execute({ pattern: "needle" });
    assert.deepEqual(result.matches.map((m) => m.path), [
      "keep.log",
      "sub/open.txt",
      "top.txt",
    ]);
    assert.equal(result.binaryFiles, 1);
    // A folder named explicitly is searched even when .gitignore ignores it.
    const dist = await tools.search.execute({
      pattern: "needle",
      path: "dist",
    });
    assert.deepEqual(dist.matches.map((m) => m.path), ["dist/out.js"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("search() keeps only files matching the glob", async () => {
  const root = await workspace({
    "src/a.ts": "needle\n",
    "src/a_test.ts": "needle\n",
    "src/deep/b.tsx": "needle\n",
    "docs/c.md": "needle\n",
  });
  try {
    const tools = inProcess(
      createTools({ cwd: root, permissionMode: "readOnly" }),
    );
    const paths = async (glob: string, path?: string) =>
      (await tools.search.execute({ pattern: "needle", glob, path })).matches
        .map((m) => m.path);
    assert.deepEqual(await paths("*.ts"), ["src/a.ts", "src/a_test.ts"]);
    assert.deepEqual(await paths("!*_test.ts"), [
      "docs/c.md",
      "src/a.ts",
      "src/deep/b.tsx",
    ]);
    assert.deepEqual(await paths("*.{tsx,md}"), [
      "docs/c.md",
      "src/deep/b.tsx",
    ]);
    assert.deepEqual(await paths("deep/*.tsx", "src"), ["src/deep/b.tsx"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("search() caps results, notes the cut and shortens long lines", async () => {
  const long = `${"x".repeat(5000)}needle${"y".repeat(5000)}`;
  const root = await workspace({
    "many.txt": Array.from({ length: 50 }, (_, i) => `needle ${i}`).join("\n"),
    "wide.txt": `${long}\n`,
  });
  try {
    const tools = inProcess(
      createTools({ cwd: root, permissionMode: "readOnly" }),
    );
    const capped = await tools.search.execute({
      pattern: "needle",
      maxResults: 10,
    });
    assert.equal(capped.matches.length, 10);
    assert.equal(capped.truncated, true);
    const text = tools.search.toModelText(capped);
    assert.match(text, /^many.txt:1: needle 0$/m);
    assert.match(
      text,
      /Only the first 10 matching lines are shown; more exist/,
    );
    const exact = await tools.search.execute({
      pattern: "needle",
      maxResults: 51,
    });
    assert.equal(exact.truncated, false);
    assert.equal(exact.matches.length, 51);
    const wide = await tools.search.execute({
      pattern: "needle",
      path: "wide.txt",
    });
    assert.equal(wide.matches[0].path, "wide.txt");
    assert.ok(wide.matches[0].text.length <= 202);
    assert.match(wide.matches[0].text, /^…x+needley+…$/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("search() streams big files with correct line numbers", async () => {
  // 200k lines (about 1.6 MB): matches land across many 64 KiB chunks.
  const body = Array.from(
    { length: 200_000 },
    (_, i) => i % 40_000 === 39_999 ? `hit ${i}` : `l${i}`,
  );
  const root = await workspace({ "big.txt": body.join("\r\n") });
  try {
    const tools = inProcess(
      createTools({ cwd: root, permissionMode: "readOnly" }),
    );
    const result = await tools.search.execute({ pattern: "hit" });
    assert.deepEqual(
      result.matches.map((m) => `${m.line}:${m.text}`),
      [40_000, 80_000, 120_000, 160_000, 200_000].map((n) =>
        `${n}:hit ${n - 1}`
      ),
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("search() names a missing path and asks before reading outside the workspace", async () => {
  const root = await workspace({ "a.txt": "needle\n" });
  const outside = await workspace({ "b.txt": "needle\n" });
  try {
    const { calls: requests, approve } = recorder(false);
    const tools = inProcess(createTools({
      cwd: root,
      permissionMode: "ask",
      approve,
    }));
    await assert.rejects(
      () => tools.search.execute({ pattern: "needle", path: "nope" }),
      /Cannot search "nope": no such file or folder/,
    );
    await assert.rejects(
      () => tools.search.execute({ pattern: "needle", path: outside }),
      /Refused by the user/,
    );
    assert.equal(requests.length, 1);
    assert.equal(requests[0].tool, "search");
    assert.equal(requests[0].action, "read");
    assert.equal(requests[0].outsideWorkspace, true);
    // Inside the workspace, reading needs no approval.
    const inside = await tools.search.execute({ pattern: "needle" });
    assert.equal(inside.matches.length, 1);
    const none = await tools.search.execute({ pattern: "absent" });
    assert.equal(
      tools.search.toModelText(none),
      'No matches for "absent" in the workspace (1 file searched)',
    );
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("search() keeps path order and cuts exactly at maxResults across many files", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 12; i++) {
    files[`f${String(i).padStart(2, "0")}.txt`] = "hit a\nmiss\nhit b\nhit c\n";
  }
  const root = await workspace(files);
  try {
    const tools = inProcess(
      createTools({ cwd: root, permissionMode: "readOnly" }),
    );
    // A regex runs in a worker, a literal in-process: both keep the order.
    for (const regex of [false, true]) {
      const result = await tools.search.execute({
        pattern: "hit",
        regex,
        maxResults: 7,
      });
      assert.deepEqual(
        result.matches.map((m) => `${m.path}:${m.line}`),
        [
          "f00.txt:1",
          "f00.txt:3",
          "f00.txt:4",
          "f01.txt:1",
          "f01.txt:3",
          "f01.txt:4",
          "f02.txt:1",
        ],
      );
      assert.equal(result.truncated, true);
      const all = await tools.search.execute({
        pattern: "hit",
        regex,
        maxResults: 36,
      });
      assert.equal(all.matches.length, 36);
      assert.equal(all.truncated, false);
      assert.equal(all.filesSearched, 12);
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("search() applies the .gitignore files above a searched folder", async () => {
  const root = await workspace({
    ".gitignore": "generated/\n/src/local.txt\n",
    "src/a.txt": "needle\n",
    "src/local.txt": "needle\n",
    "src/generated/g.txt": "needle\n",
    "src/deep/.gitignore": "!keep.log\n*.log\n",
    "src/deep/x.log": "needle\n",
  });
  try {
    // The repository's own exclude file counts too.
    await Deno.mkdir(join(root, ".git/info"), { recursive: true });
    await Deno.writeTextFile(join(root, ".git/info/exclude"), "*.secret\n");
    await Deno.writeTextFile(join(root, "src/x.secret"), "needle\n");
    const tools = inProcess(
      createTools({ cwd: root, permissionMode: "readOnly" }),
    );
    const result = await tools.search.execute({
      pattern: "needle",
      path: "src",
    });
    assert.deepEqual(result.matches.map((m) => m.path), ["src/a.txt"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("search() finds non-ASCII text, also when a character spans two reads", async () => {
  const root = await workspace({
    "small.txt": "héllo\nwörld ✓\n",
    // "é" (2 bytes) straddles the first 256 KiB read.
    "edge.txt": `${"a".repeat(256 * 1024 - 1)}é-needle\nnext ✓\n`,
  });
  try {
    const tools = inProcess(
      createTools({ cwd: root, permissionMode: "readOnly" }),
    );
    const small = await tools.search.execute({ pattern: "wörld ✓" });
    assert.deepEqual(small.matches, [{
      path: "small.txt",
      line: 2,
      text: "wörld ✓",
    }]);
    const edge = await tools.search.execute({ pattern: "é-needle" });
    assert.equal(edge.matches.length, 1);
    assert.equal(edge.matches[0].line, 1);
    assert.match(edge.matches[0].text, /aé-needle$/);
    const next = await tools.search.execute({ pattern: "next ✓" });
    assert.deepEqual(next.matches.map((m) => `${m.path}:${m.line}`), [
      "edge.txt:2",
    ]);
    const absent = await tools.search.execute({ pattern: "wörld ✗" });
    assert.equal(absent.matches.length, 0);
    assert.equal(absent.filesSearched, 2);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("search() quotes a long pattern cut short in its errors", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const tools = inProcess(
      createTools({ cwd: dir, permissionMode: "readOnly" }),
    );
    await assert.rejects(
      tools.search.execute({ pattern: "(".repeat(100_000), regex: true }),
      (error: Error) =>
        error.message.length < 1_000 &&
        /… \(100000 characters\): invalid regular expression: Too many captures/
          .test(error.message),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("search() under a narrow --allow-read names the flag for a symlink out of the grant, not 'No matches'", async () => {
  await withDirs(async ({ ws, out }) => {
    await writeFiles(out, { "secret.txt": "needle\n", "dir/inner.txt": "x\n" });
    await writeFiles(ws, { "a.txt": "needle\n" });
    await Deno.symlink(join(out, "secret.txt"), join(ws, "peek.txt"));
    await Deno.symlink(join(out, "dir"), join(ws, "link"));
    const script = join(ws, "child.ts");
    await Deno.writeTextFile(script, SEARCH_CHILD);
    const { stdout } = await runDeno(
      [`--allow-read=${ws},${import.meta.dirname}`],
      script,
      [ws, JSON.stringify(["peek.txt", "link", "a.txt"])],
    );
    const [peek, link, inside] = JSON.parse(stdout);
    assert.equal(
      peek,
      `Deno denies reading "${ws}/peek.txt": it leads through a symlink to "${out}/secret.txt", outside the granted "${ws}"; run deno again with --allow-read=${out}/secret.txt (or a parent folder)`,
    );
    assert.ok(link.includes(`--allow-read=${out}/dir `), link);
    assert.equal(inside, "a.txt:1: needle");
  });
});

/** Runs searches for "needle" in the paths Deno.args[1] (JSON) of the workspace Deno.args[0]; prints each answer or error message. */
const SEARCH_CHILD = `
import { createTools } from ${
  JSON.stringify(import.meta.resolve("../create_tools.ts"))
};
const [cwd, paths] = Deno.args;
const { search } = createTools({ cwd, permissionMode: "allow" });
const answers = [];
for (const path of JSON.parse(paths)) {
  answers.push(await search.execute({ pattern: "needle", path }).then(
    (result) => search.toModelText(result),
    (error) => error.message,
  ));
}
console.log(JSON.stringify(answers));
`;

Deno.test("search() finds a match in a UTF-16 file with a BOM, as ReadFile reads it", async () => {
  await withWorkspace(async (ws) => {
    await Deno.writeFile(
      join(ws, "notes.txt"),
      utf16WithBom("intro\nneedle\n"),
    );
    const tools = createTools({ cwd: ws, permissionMode: "allow" });
    const read = await tools.ReadFile.execute({ path: "notes.txt" });
    assert.equal(read.content, "intro\nneedle\n");
    const found = await tools.search.execute({ pattern: "needle" });
    assert.deepEqual(found.matches, [
      { path: "notes.txt", line: 2, text: "needle" },
    ]);
    assert.equal(found.binaryFiles, 0);
  });
});

Deno.test("search() is literal and case-sensitive by default, answers path:line: text and notes a cut", async () => {
  await withWorkspace(async (ws) => {
    await Deno.mkdir(join(ws, "src"));
    await Deno.writeTextFile(join(ws, "src/a.ts"), "Foo\nfoo\na.b\naXb\n");
    const tools = createTools({ cwd: ws, permissionMode: "readOnly" });
    const exact = await tools.search.execute({ pattern: "Foo" });
    assert.equal(tools.search.toModelText(exact), "src/a.ts:1: Foo");
    const folded = await tools.search.execute({
      pattern: "FOO",
      caseSensitive: false,
    });
    assert.deepEqual(folded.matches.map((m) => m.line), [1, 2]);
    const literal = await tools.search.execute({ pattern: "a.b" });
    assert.deepEqual(literal.matches.map((m) => m.line), [3]);
    const regex = await tools.search.execute({ pattern: "a.b", regex: true });
    assert.deepEqual(regex.matches.map((m) => m.line), [3, 4]);
    const cut = await tools.search.execute({ pattern: "o", maxResults: 1 });
    assert.equal(cut.truncated, true);
    assert.match(
      tools.search.toModelText(cut),
      /^src\/a\.ts:1: Foo\n\(Only the first matching line is shown; more exist\./,
    );
  });
});

/** A script that searches with a regex that backtracks catastrophically on `stuck.txt`. */
const STUCK_CHILD = `
import { ToolContext } from ${
  JSON.stringify(new URL("../context.ts", import.meta.url).href)
};
import { createSearch } from ${
  JSON.stringify(new URL("./search.ts", import.meta.url).href)
};
import { createLocalFiles } from ${
  JSON.stringify(new URL("../local_files.ts", import.meta.url).href)
};
import { createLocalProcesses } from ${
  JSON.stringify(new URL("../shell/local_processes.ts", import.meta.url).href)
};
const context = new ToolContext({
  workspace: Deno.args[0],
  permissionMode: "readOnly",
  files: createLocalFiles(),
  processes: createLocalProcesses(),
});
const search = createSearch(context, { regexBudgetMs: 1_000 });
const outcome = (input) => search.execute(input).then(
  (result) => result.matches.map((m) => m.path + ":" + m.line),
  (error) => "error: " + error.message,
);
const out = [];
out.push(await outcome({ pattern: "(?=a)(a|a)*b", regex: true }));
out.push(await outcome({ pattern: "(?=a)(a|a)*b", regex: true, path: "ok.txt" }));
out.push(await outcome({ pattern: "(a|a)*b", regex: false }));
out.push(await outcome({ pattern: "^a+$", regex: true }));
out.push(await outcome({ pattern: "(?=a)(a|a)*b", regex: true }));
console.log(JSON.stringify(out));
`;

Deno.test("search() in a script whose regex ran past its budget still searches other files and patterns, and the script exits at once", async () => {
  await withWorkspace(async (dir) => {
    const ws = join(dir, "ws");
    await Deno.mkdir(ws);
    // Forty a's: the match never ends, so only the child's exit ends it.
    await Deno.writeTextFile(join(ws, "stuck.txt"), `${"a".repeat(40)}\n`);
    await Deno.writeTextFile(join(ws, "ok.txt"), "aab\n");
    const script = join(dir, "child.js");
    await Deno.writeTextFile(script, STUCK_CHILD);
    const { stdout, ms } = await runDeno(["-A"], script, [ws]);
    const [first, other, literal, anchored, again] = JSON.parse(stdout);
    assert.match(
      first,
      /^error: Search for "\(\?=a\)\(a\|a\)\*b" stopped: .*"stuck\.txt"/,
    );
    assert.match(first, /leave that file out with "path" or "glob"/);
    assert.deepEqual(other, ["ok.txt:1"]);
    assert.deepEqual(literal, []);
    assert.deepEqual(anchored, ["stuck.txt:1"]);
    assert.equal(again, first);
    // Generous: the stuck thread must not keep the script alive for long.
    assert.ok(ms < 20_000, `exited after ${Math.round(ms)} ms`);
  });
});

Deno.test("search() ends while a file in the workspace keeps growing", async () => {
  await withWorkspace(async (dir) => {
    const path = join(dir, "growing.log");
    // Text first (the binary check looks at the first 8000 bytes), then a
    // hole that grows: no disk is used.
    await Deno.writeTextFile(path, "a text line\n".repeat(2000));
    let size = 24_000;
    let growing = true;
    const grower = (async () => {
      while (growing) {
        size += 64 * MB;
        await Deno.truncate(path, size);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();
    try {
      const tools = createTools({ cwd: dir, permissionMode: "allow" });
      const outcome = await tools.search.execute(
        { pattern: "absent-zzz" },
        { signal: AbortSignal.timeout(15_000) },
      ).then((result) => tools.search.toModelText(result), String);
      assert.match(outcome, /No matches/);
    } finally {
      growing = false;
      await grower;
    }
  });
});

Deno.test("search() under a 20 000-rule .gitignore takes about as long as without", async () => {
  await withWorkspace(async (dir) => {
    await Deno.mkdir(join(dir, "src"));
    for (let i = 0; i < 1000; i++) {
      await Deno.writeTextFile(join(dir, "src", `f${i}.txt`), `x ${i}\n`);
    }
    await Deno.writeTextFile(join(dir, "src", "n.txt"), "needle\n");
    const rules = Array.from({ length: 20_000 }, (_, i) => `build${i}/`);
    const gitignore = join(dir, ".gitignore");
    const tools = createTools({ cwd: dir, permissionMode: "allow" });
    // Against the same search without the file, taken turn about and best
    // of three each, so a busy machine slows both alike (250-400 ms each
    // beside two busy loops). Generous: the bound catches a cost that grows
    // with rules times paths, not a slow run.
    const best = { with: Infinity, without: Infinity };
    for (let round = 0; round < 3; round++) {
      for (const kind of ["without", "with"] as const) {
        if (kind === "with") {
          await Deno.writeTextFile(gitignore, rules.join("\n"));
        } else await Deno.remove(gitignore).catch(() => {});
        const started = performance.now();
        const result = await tools.search.execute({ pattern: "needle" });
        best[kind] = Math.min(best[kind], performance.now() - started);
        assert.match(tools.search.toModelText(result), /n\.txt:1: needle/);
      }
    }
    assert.ok(
      best.with < 10 * best.without + 1_000,
      `search took ${Math.round(best.with)} ms, ${
        Math.round(best.without)
      } ms without the .gitignore`,
    );
  });
});

Deno.test("search() leaves at most two runaway regular expressions running", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(join(dir, "a.txt"), `${"a".repeat(40)}\n`);
    const tools = new URL("../", import.meta.url).href;
    const { result } = await childPeak(
      `import { ToolContext } from "${tools}context.ts";
import { createLocalFiles } from "${tools}local_files.ts";
import { createLocalProcesses } from "${tools}shell/local_processes.ts";
import { createSearch } from "${tools}search/search.ts";
const context = new ToolContext({ workspace: Deno.args[0], permissionMode: "allow", files: createLocalFiles(), processes: createLocalProcesses() });
const search = createSearch(context, { regexBudgetMs: 500 });
for (const letter of "bcdef") {
await search.execute({ pattern: "(?=a)(a|a)*" + letter, regex: true }).catch(() => {});
}
await new Promise((resolve) => setTimeout(resolve, 300));
// Deno names worker threads "worker-N"; a spinning one is always runnable.
let running = 0;
for (const task of Deno.readDirSync("/proc/self/task")) {
try {
  const dir = "/proc/self/task/" + task.name;
  const stat = Deno.readTextFileSync(dir + "/stat");
  const name = Deno.readTextFileSync(dir + "/comm");
  if (name.startsWith("worker-") && stat.slice(stat.lastIndexOf(")") + 2)[0] === "R") running++;
} catch { /* ended */ }
}
(globalThis as Record<string, unknown>).result = running;
// The spinning workers would keep the child alive: end it once it printed.
setTimeout(() => Deno.exit(0), 0);`,
      [dir],
    );
    assert.ok(
      (result as number) <= 2,
      `${result} worker threads still running after five runaway patterns`,
    );
  });
});
