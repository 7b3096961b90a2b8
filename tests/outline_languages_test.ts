// End to end for the Go, C, C++, Objective-C, Swift, Kotlin and Dart outlines:
// through the public API, the worker pool, the grammar loader and the CLI, each
// fixture's outline equals what its extractor gives on the main thread.
import assert, { deepStrictEqual, equal } from "node:assert/strict";
import { join } from "node:path";
import { fileOutline, outlineSymbols } from "../mod.ts";
import type { LanguageSpec } from "../outline/languages/_language.ts";
import { c } from "../outline/languages/c_family/c.ts";
import { cpp } from "../outline/languages/c_family/cpp.ts";
import { dart } from "../outline/languages/dart/dart.ts";
import { go } from "../outline/languages/go/go.ts";
import { kotlin } from "../outline/languages/kotlin/kotlin.ts";
import { objc } from "../outline/languages/c_family/objc.ts";
import { swift } from "../outline/languages/swift/swift.ts";
import {
  fixtureLines,
  FIXTURES,
  outlineLines,
} from "./support/outline_languages.ts";
import { fello } from "./support/fello_cli.ts";
import { withWorkspace } from "./support/workspace.ts";

const CWD = FIXTURES.pathname;

const CASES: {
  spec: LanguageSpec;
  file: string;
  language: string;
  totalLines: number;
  head: string[];
}[] = [
  {
    spec: go,
    file: "sample.go",
    language: "Go",
    totalLines: 84,
    head: [
      "package server (line 2)  // Package server runs a small HTTP server.",
      'import "context", "fmt", nethttp "net/http", "sync", "time" (lines 4-10)',
    ],
  },
  {
    spec: c,
    file: "sample.c",
    language: "C",
    totalLines: 79,
    head: [
      "struct kv_entry (lines 10-16)  // One entry of the store.",
      "    field key (line 11)",
    ],
  },
  {
    spec: cpp,
    file: "sample.cpp",
    language: "C++",
    totalLines: 81,
    head: [
      "namespace geo (lines 5-42)",
      "    namespace shapes (lines 6-37)",
      "        class Shape (lines 9-35)  // A drawable shape.",
    ],
  },
  {
    spec: swift,
    file: "sample.swift",
    language: "Swift",
    totalLines: 80,
    head: [
      "protocol Drawable (lines 6-12)  // Something that can be drawn.",
      "    var bounds (line 8)  // The bounding box.",
    ],
  },
  {
    spec: kotlin,
    file: "sample.kt",
    language: "Kotlin",
    totalLines: 61,
    head: [
      "object Empty (line 6)",
      "    fun nothing (line 6)",
    ],
  },
  {
    spec: dart,
    file: "sample.dart",
    language: "Dart",
    totalLines: 76,
    head: [
      "class Shape (lines 7-28)  // Something with an area.",
      "    getter area (line 9)  // The area in square units.",
    ],
  },
];

for (const { spec, file, language, totalLines, head } of CASES) {
  Deno.test(`outlineSymbols() outlines ${file} as ${language} through the worker pool`, async () => {
    const result = await outlineSymbols(file, { cwd: CWD });
    equal(result.language, language);
    equal(result.totalLines, totalLines);
    deepStrictEqual(
      outlineLines(result.symbols),
      await fixtureLines(spec, file),
    );
  });

  Deno.test(`fileOutline() renders ${file} in the specification's format`, async () => {
    const text = await fileOutline(file, { cwd: CWD });
    deepStrictEqual(text.split("\n").slice(0, 4 + head.length), [
      `File: ${file}`,
      `Language: ${language}`,
      `Total lines: ${totalLines}`,
      "─── Symbols ───",
      ...head,
    ]);
  });
}

/**
 * Copies the outline fixture `header.fixture` into `dir` as `name`, and
 * asserts that outlineSymbols() reads it as `header.language` with the
 * outline `header.spec` gives the fixture.
 */
async function assertFixtureAs(
  dir: string,
  name: string,
  header: { fixture: string; spec: LanguageSpec; language: string },
): Promise<void> {
  await Deno.copyFile(new URL(header.fixture, FIXTURES), join(dir, name));
  const outline = await outlineSymbols(name, { cwd: dir });
  equal(outline.language, header.language);
  deepStrictEqual(
    outlineLines(outline.symbols),
    await fixtureLines(header.spec, header.fixture),
  );
}

// A `.h` header is C by the specification's table; a C++ one (a class, a
// namespace, a template) would lose its names under the C grammar.
Deno.test("outlineSymbols() outlines a C++ header as C++ and a C header as C", async () => {
  await withWorkspace(async (dir) => {
    const geo = { fixture: "sample.cpp", spec: cpp, language: "C++" };
    await assertFixtureAs(dir, "geo.h", geo);
    const store = { fixture: "sample.c", spec: c, language: "C" };
    await assertFixtureAs(dir, "store.h", store);
  });
});

// An Objective-C header under the C grammar alone lost its classes and the
// C declarations after them.
Deno.test("fileOutline() outlines an Objective-C header's classes and its C declarations", async () => {
  await withWorkspace(async (dir) => {
    await assertFixtureAs(dir, "KVStore.h", {
      fixture: "sample_objc.h",
      spec: objc,
      language: "Objective-C",
    });
    const text = await fileOutline("KVStore.h", { cwd: dir });
    deepStrictEqual(text.split("\n").slice(0, 7), [
      "File: KVStore.h",
      "Language: Objective-C",
      "Total lines: 67",
      "─── Symbols ───",
      "enum KVOpenOptions (lines 11-13)  // Options for opening a store.",
      "    enumerator KVOpenReadOnly (line 12)",
      "interface KVStore (lines 19-35)  // A persistent key-value store.",
    ]);
  });
});

// The Swift scanner once read stale heap on a process's first parse; a
// fresh CLI process must outline a file as a warm worker does.
Deno.test("outline CLI gives a fresh process the same Swift outline as a warm one", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(
      join(dir, "S.swift"),
      [
        "class S {",
        "    let a = 1",
        "    #if os(iOS)",
        "    func p() {}",
        "    #endif",
        "}",
        "",
      ].join("\n"),
    );
    const { code, stdout, stderr } = await fello(["outline", "S.swift"], {
      cwd: dir,
    });
    assert.equal(code, 0, stderr);
    assert.deepEqual(stdout.trim().split("\n").slice(4), [
      "class S (lines 1-6)",
      "    let a (line 2)",
      "    func p (line 4)",
    ]);
  });
});
