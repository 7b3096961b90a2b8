import assert from "node:assert/strict";
import { join } from "node:path";
import { estimateTokens } from "../../internal/tokens.ts";
import { withWorkspace, writeFiles } from "../../tests/support/workspace.ts";
import { repoMap } from "./repo_map.ts";

const LETTERS = "DEFGHIJKLMNOPQRSTUVWXYZ".split("");

/**
 * A repository where a.ts calls parseBravo() of b.ts and checkCharlie() of
 * c.ts, and d.ts..z.ts call one another's helpers but nothing of b or c.
 */
function calls(): Record<string, string> {
  const files: Record<string, string> = {
    "a.ts": 'import { parseBravo } from "./b.ts";\n' +
      'import { checkCharlie } from "./c.ts";\n' +
      "export function runAlpha() {\n  return checkCharlie(parseBravo());\n}\n",
    "b.ts": "export function parseBravo() {\n  return 1;\n}\n" +
      "export function unusedBravo() {\n  return 2;\n}\n",
    "c.ts": "export function checkCharlie(x: number) {\n  return x > 0;\n}\n",
  };
  LETTERS.forEach((letter, i) => {
    const next = LETTERS[(i + 1) % LETTERS.length];
    files[`${letter.toLowerCase()}.ts`] =
      `export function helper${letter}Value() {\n  return helper${next}Value();\n}\n` +
      `export function other${letter}Thing() {\n  return 0;\n}\n`;
  });
  return files;
}

function positionOf(map: string, text: string): number {
  const at = map.indexOf(text);
  assert.ok(at >= 0, `"${text}" is missing from the map:\n${map}`);
  return at;
}

Deno.test("repoMap() with focus lists what the focused file calls before unrelated code", async () => {
  await withWorkspace(async (root) => {
    await writeFiles(root, calls());
    const map = await repoMap(root, {
      focus: ["a.ts"],
      tokens: 256,
      cacheDir: false,
    });
    const called = Math.max(
      positionOf(map, "function parseBravo"),
      positionOf(map, "function checkCharlie"),
    );
    for (const letter of LETTERS) {
      const at = map.indexOf(`helper${letter}Value`);
      if (at >= 0) assert.ok(at > called, `helper${letter}Value came first`);
    }
    assert.ok(
      !map.includes("unusedBravo") ||
        map.indexOf("unusedBravo") > positionOf(map, "parseBravo"),
    );
  });
});

Deno.test("repoMap() with a symbol as focus ranks its callers' files", async () => {
  await withWorkspace(async (root) => {
    await writeFiles(root, calls());
    const map = await repoMap(root, {
      focus: ["runAlpha"],
      tokens: 256,
      cacheDir: false,
    });
    assert.ok(
      positionOf(map, "function parseBravo") <
        positionOf(map, "function helperDValue"),
    );
  });
});

Deno.test("repoMap() without focus lists the most referenced definitions first", async () => {
  await withWorkspace(async (root) => {
    const files: Record<string, string> = {
      "core.py":
        "def sharedCoreRoutine():\n    return 1\n\n\ndef lonelyRoutine():\n    return 2\n",
    };
    for (let i = 0; i < 12; i++) {
      files[`user${i}.py`] =
        `from core import sharedCoreRoutine\n\n\ndef caller${i}():\n    return sharedCoreRoutine()\n`;
    }
    await writeFiles(root, files);
    const map = await repoMap(root, { cacheDir: false });
    const lines = map.split("\n");
    assert.equal(lines[0], "core.py");
    assert.match(lines[1], /^ {4}def sharedCoreRoutine \(lines 1-2\)$/);
  });
});

Deno.test("repoMap() counts a Go method by its name, and takes it as focus by its receiver", async () => {
  await withWorkspace(async (root) => {
    const files: Record<string, string> = {
      "server.go": "package web\n\ntype Server struct{}\n\n" +
        "func (s *Server) ServeRequests() {}\n\n" +
        "func (s *Server) lonelyMethod() {}\n",
      "vars.go": "package web\n\nvar srv = &Server{}\n",
      "popular.go": "package web\n\nfunc popularHelperFunction() {}\n",
    };
    for (let i = 0; i < 12; i++) {
      files[`user${i}.go`] =
        `package web\n\nfunc caller${i}() {\n\tsrv.ServeRequests()\n\tpopularHelperFunction()\n}\n`;
    }
    await writeFiles(root, files);
    // Called from twelve files by a specific name: above the short `srv`.
    const map = await repoMap(root, { cacheDir: false });
    assert.ok(
      positionOf(map, "method (*Server) ServeRequests") <
        positionOf(map, "var srv"),
    );
    const focused = await repoMap(root, {
      focus: ["Server.lonelyMethod"],
      tokens: 256,
      cacheDir: false,
    });
    assert.equal(focused.split("\n")[0], "server.go");
  });
});

Deno.test("repoMap() keeps within the budget and fills at least 90% of it", async () => {
  await withWorkspace(async (root) => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 200; i++) {
      const body = Array.from(
        { length: 12 },
        (_, j) =>
          `export function routine${i}_${j}(value: number): number {\n  return routine${
            (i + 1) % 200
          }_${j}(value) + ${j};\n}\n`,
      ).join("");
      files[`src/module${i}.ts`] = body;
    }
    await writeFiles(root, files);
    for (const tokens of [256, 512, 1024, 4096, 16384]) {
      const map = await repoMap(root, { tokens, cacheDir: false });
      const size = estimateTokens(map);
      assert.ok(size <= tokens, `${size} tokens for a budget of ${tokens}`);
      assert.ok(
        size >= tokens * 0.9,
        `${size} tokens for a budget of ${tokens}`,
      );
      assert.match(
        map,
        /\n\(\d+ more files? and \d+ more symbols? left out\)$/,
      );
    }
  });
});

Deno.test("repoMap() leaves out ignored, hidden, vendored and built folders", async () => {
  await withWorkspace(async (root) => {
    const files: Record<string, string> = {
      ".gitignore": "generated/\n",
      "main.go": "package main\n\nfunc main() {\n\tKeptHelper()\n}\n",
      "kept.go": "package main\n\nfunc KeptHelper() {}\n",
    };
    for (
      const folder of [
        "generated",
        ".hidden",
        "node_modules/pkg",
        "vendor",
        "third_party",
        "dist",
        "build",
        "out",
        "target",
      ]
    ) {
      files[`${folder}/x.go`] = "package x\n\nfunc KeptHelper() {}\n";
    }
    await writeFiles(root, files);
    const map = await repoMap(root, { cacheDir: false });
    assert.match(map, /^kept\.go$/m);
    assert.doesNotMatch(map, /x\.go/);
  });
});

Deno.test("repoMap() reads no unchanged file again, and only the edited one after an edit", async () => {
  await withWorkspace(async (root) => {
    await writeFiles(root, calls());
    const cacheDir = join(root, ".cache");
    await repoMap(root, { focus: ["a.ts"], cacheDir });
    // Same size and modification time, other content: a map that read the
    // file again would show the new name.
    const b = join(root, "b.ts");
    const { mtime } = await Deno.stat(b);
    await Deno.writeTextFile(
      b,
      (await Deno.readTextFile(b)).replace("parseBravo", "parseBRAVO"),
    );
    await Deno.utime(b, mtime!, mtime!);
    const c = join(root, "c.ts");
    await Deno.writeTextFile(
      c,
      (await Deno.readTextFile(c)).replace("checkCharlie", "checkCHARLIE"),
    );
    await Deno.utime(c, new Date(), new Date(Date.now() + 5_000));
    // A child process: the disk cache answers, not this process's memory.
    const script = join(root, ".cache", "map.ts");
    await Deno.writeTextFile(
      script,
      `import { repoMap } from ${
        JSON.stringify(new URL("./repo_map.ts", import.meta.url).href)
      };
console.log(await repoMap(${
        JSON.stringify(root)
      }, { focus: ["a.ts"], cacheDir: ${JSON.stringify(cacheDir)} }));`,
    );
    const output = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--config",
        new URL("../../deno.json", import.meta.url).pathname,
        script,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const map = new TextDecoder().decode(output.stdout);
    assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
    assert.match(map, /function parseBravo/);
    assert.match(map, /function checkCHARLIE/);
    assert.doesNotMatch(map, /parseBRAVO|checkCharlie/);
  });
});

Deno.test("repoMap() refuses a budget under 256 tokens and a missing folder", async () => {
  await withWorkspace(async (root) => {
    await assert.rejects(
      repoMap(root, { tokens: 100, cacheDir: false }),
      /tokens must be a number of at least 256, got 100/,
    );
    await assert.rejects(
      repoMap(join(root, "missing"), { cacheDir: false }),
      /Cannot map ".*missing": no such folder/,
    );
  });
});
