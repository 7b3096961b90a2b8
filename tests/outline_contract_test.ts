// Issue 4's public API (fileOutline, outlineSymbols) and the `outline` CLI,
// called as the issue writes them. Where naming is a judgment call (import
// names, Go receivers, the label of a C function) only presence and range count.
import assert from "node:assert/strict";
import { fileOutline, outlineSymbols } from "../mod.ts";
import type { OutlineSymbol } from "../mod.ts";
import { fello } from "./support/fello_cli.ts";
import {
  manyFunctions,
  TS_EXPECTED,
  TS_SAMPLE,
} from "./support/outline_samples.ts";
import { withWorkspace, writeFiles } from "./support/workspace.ts";

const FIXTURES = new URL("./fixtures/outline/", import.meta.url).pathname;

type Files = Record<string, string | Uint8Array>;

/** Runs `fn` in a fresh workspace holding `files`. */
function withFiles(
  files: Files,
  fn: (dir: string) => Promise<void>,
): Promise<void> {
  return withWorkspace(async (dir) => {
    await writeFiles(dir, files);
    await fn(dir);
  });
}

/** Flattens symbols to `kind name a-b` lines, four spaces per level. */
function flat(symbols: OutlineSymbol[], depth = 0): string[] {
  return symbols.flatMap((s) => [
    `${"    ".repeat(depth)}${s.kind} ${s.name} ${s.startLine}-${s.endLine}`,
    ...flat(s.children, depth + 1),
  ]);
}

function find(
  symbols: OutlineSymbol[],
  match: (s: OutlineSymbol) => boolean,
): OutlineSymbol | undefined {
  for (const s of symbols) {
    if (match(s)) return s;
    const inner = find(s.children, match);
    if (inner) return inner;
  }
  return undefined;
}

function named(symbols: OutlineSymbol[], name: string): OutlineSymbol {
  const found = find(symbols, (s) => s.name === name);
  assert.ok(found, `no symbol named ${name} in:\n${flat(symbols).join("\n")}`);
  return found;
}

function lines(s: OutlineSymbol): [number, number] {
  return [s.startLine, s.endLine];
}

async function outline(dir: string, name: string, content: string) {
  await Deno.writeTextFile(`${dir}/${name}`, content);
  return await outlineSymbols(name, { cwd: dir });
}

// ---------------------------------------------------------------- TypeScript

Deno.test("fileOutline() prints a TypeScript file exactly in the specification's format", async () => {
  await withFiles({ "src/sample.ts": TS_SAMPLE }, async (dir) => {
    const text = await fileOutline("src/sample.ts", { cwd: dir });
    assert.equal(text.trimEnd(), TS_EXPECTED);
  });
});

Deno.test("fileOutline() shows an absolute path as given", async () => {
  await withFiles({ "src/sample.ts": TS_SAMPLE }, async (dir) => {
    const text = await fileOutline(`${dir}/src/sample.ts`, { cwd: "/" });
    assert.equal(text.split("\n")[0], `File: ${dir}/src/sample.ts`);
  });
});

Deno.test("fileOutline() accepts a file:// URI and shows it as given", async () => {
  await withFiles({ "src/sample.ts": TS_SAMPLE }, async (dir) => {
    const uri = new URL(`file://${dir}/src/sample.ts`).href;
    const text = await fileOutline(uri, { cwd: "/" });
    assert.equal(
      text.trimEnd(),
      TS_EXPECTED.replace("File: src/sample.ts", `File: ${uri}`),
    );
  });
});

Deno.test("fileOutline() matches the specification's example: CJK docs, nested members kept at level two", async () => {
  const source = [
    "/** 扩展 SessionNotification 结构 */", // 1
    "export interface SessionNotificationFelloExt {", // 2
    "  update: {", // 3
    "    kind: string;", // 4
    "  };", // 5
    "}", // 6
    "/**", // 7
    " * 代理（Agent）的配置信息", // 8
    " */", // 9
    "export interface BaseAgentInfo {", // 10
    "  /** 代理的唯一标识符 */", // 11
    "  id: string;", // 12
    "  /** 是否停用代理 */", // 13
    "  disabled?: boolean;", // 14
    "}", // 15
    "",
  ].join("\n");
  await withFiles({ "src/shared/schema.ts": source }, async (dir) => {
    const text = await fileOutline("src/shared/schema.ts", { cwd: dir });
    assert.equal(
      text.trimEnd(),
      [
        "File: src/shared/schema.ts",
        "Language: TypeScript",
        "Total lines: 15",
        "─── Symbols ───",
        "interface SessionNotificationFelloExt (lines 2-6)  // 扩展 SessionNotification 结构",
        "    property update (lines 3-5)",
        "interface BaseAgentInfo (lines 10-15)  // 代理（Agent）的配置信息",
        "    property id (line 12)  // 代理的唯一标识符",
        "    property disabled (line 14)  // 是否停用代理",
      ].join("\n"),
    );
  });
});

Deno.test("outlineSymbols() returns language, totalLines and nested symbols with docs", async () => {
  await withFiles({ "src/sample.ts": TS_SAMPLE }, async (dir) => {
    const result = await outlineSymbols("src/sample.ts", { cwd: dir });
    assert.equal(result.language, "TypeScript");
    assert.equal(result.totalLines, 28);
    const iface = result.symbols[0];
    assert.equal(iface.kind, "interface");
    assert.equal(iface.name, "BaseAgentInfo");
    assert.deepEqual(lines(iface), [4, 8]);
    assert.equal(iface.doc, "The agent's configuration.");
    assert.deepEqual(iface.children.map((c) => [c.kind, c.name, c.doc]), [
      ["property", "id", "Unique id"],
      ["property", "disabled", undefined],
    ]);
    assert.ok(
      !("doc" in iface.children[1]) || iface.children[1].doc === undefined,
    );
    assert.deepEqual(flat(result.symbols), [
      "interface BaseAgentInfo 4-8",
      "    property id 6-6",
      "    property disabled 7-7",
      "function add 13-15",
      "class Greeter 17-21",
      "    method greet 18-20",
      "type Id 23-23",
      "const LIMIT 24-24",
      "let counter 25-25",
      "namespace Util 26-28",
      "    function helper 27-27",
    ]);
  });
});

Deno.test("outlineSymbols() labels TypeScript imports and enums", async () => {
  await withFiles({}, async (dir) => {
    const result = await outline(
      dir,
      "a.ts",
      [
        'import { readFile } from "node:fs";', // 1
        'import type { X } from "./x.ts";', // 2
        "", // 3
        "/** Colours. */", // 4
        "export enum Color {", // 5
        "  Red,", // 6
        "  Green,", // 7
        "}", // 8
        "export default class {}", // 9
      ].join("\n"),
    );
    const imports = result.symbols.filter((s) => s.kind === "import");
    assert.deepEqual(imports.map(lines), [[1, 1], [2, 2]]);
    const color = named(result.symbols, "Color");
    assert.equal(color.kind, "enum");
    assert.deepEqual(lines(color), [5, 8]);
    assert.equal(color.doc, "Colours.");
    assert.equal(result.totalLines, 9);
  });
});

Deno.test("outlineSymbols() counts total lines as ReadFile does: a final newline starts no line", async () => {
  await withFiles({}, async (dir) => {
    assert.equal((await outline(dir, "n.ts", "a;\nb;\n")).totalLines, 2);
    assert.equal((await outline(dir, "m.ts", "a;\nb;")).totalLines, 2);
    assert.equal((await outline(dir, "t.md", "a\nb\n")).totalLines, 2);
    assert.equal((await outline(dir, "u.py", "a = 1\n\n")).totalLines, 2);
    const text = await fileOutline("n.ts", { cwd: dir });
    assert.match(text, /^Total lines: 2$/m);
  });
});

// ------------------------------------------ the specification's example file

Deno.test("fileOutline() prints the specification's example exactly", async () => {
  const text: string = await fileOutline("src/shared/schema.ts", {
    cwd: FIXTURES,
    maxSymbols: 5,
  });
  assert.equal(
    text,
    [
      "File: src/shared/schema.ts",
      "Language: TypeScript",
      "Total lines: 585",
      "─── Symbols ───",
      "interface SessionNotificationFelloExt (lines 14-26)  // 扩展 SessionNotification 结构",
      "    property update (lines 15-25)",
      "interface BaseAgentInfo (lines 32-40)  // 代理（Agent）的配置信息",
      "    property id (line 37)  // 代理的唯一标识符",
      "    property disabled (line 39)  // 是否停用代理",
      "... 2 more symbols left out (showing 5 of 7); read the file by line ranges for the rest",
    ].join("\n"),
  );
});

Deno.test("outlineSymbols() returns { language, totalLines, symbols } with nested children", async () => {
  const symbols = await outlineSymbols("src/shared/schema.ts", {
    cwd: FIXTURES,
  });
  assert.equal(symbols.language, "TypeScript");
  assert.equal(symbols.totalLines, 585);
  assert.deepEqual(
    symbols.symbols.map((
      { kind, name, startLine, endLine, doc, children },
    ) => ({
      kind,
      name,
      startLine,
      endLine,
      doc,
      children: children.length,
    })),
    [
      {
        kind: "interface",
        name: "SessionNotificationFelloExt",
        startLine: 14,
        endLine: 26,
        doc: "扩展 SessionNotification 结构",
        children: 1,
      },
      {
        kind: "interface",
        name: "BaseAgentInfo",
        startLine: 32,
        endLine: 40,
        doc: "代理（Agent）的配置信息",
        children: 2,
      },
      {
        kind: "type",
        name: "AgentLocation",
        startLine: 43,
        endLine: 43,
        doc: "Where an agent runs.",
        children: 0,
      },
      {
        kind: "function",
        name: "emptyAgent",
        startLine: 46,
        endLine: 48,
        doc: "Creates an empty agent description.",
        children: 0,
      },
    ],
  );
});

// ---------------------------------------------------------------- JavaScript

const JS_SAMPLE = [
  'import fs from "node:fs";', // 1
  "", // 2
  "/** Reads a file. */", // 3
  "export function read(p) {", // 4
  "  return fs.readFileSync(p);", // 5
  "}", // 6
  "", // 7
  "class Box {", // 8
  "  open() {", // 9
  "    return true;", // 10
  "  }", // 11
  "}", // 12
  "", // 13
  "const answer = 42;", // 14
  "",
].join("\n");

Deno.test("outlineSymbols() outlines JavaScript in .js, .mjs, .cjs and .jsx", async () => {
  await withFiles({}, async (dir) => {
    for (const ext of ["js", "mjs", "cjs", "jsx"]) {
      const result = await outline(dir, `a.${ext}`, JS_SAMPLE);
      assert.equal(result.language, "JavaScript", ext);
      assert.equal(result.totalLines, 14, ext);
      const rest = result.symbols.filter((s) => s.kind !== "import");
      assert.deepEqual(flat(rest), [
        "function read 4-6",
        "class Box 8-12",
        "    method open 9-11",
        "const answer 14-14",
      ], ext);
      assert.equal(rest[0].doc, "Reads a file.");
      assert.deepEqual(
        result.symbols.filter((s) => s.kind === "import").map(lines),
        [[1, 1]],
      );
    }
  });
});

Deno.test("outlineSymbols() reads .tsx as TSX", async () => {
  await withFiles({}, async (dir) => {
    const result = await outline(
      dir,
      "App.tsx",
      "export function App() {\n  return <div>hi</div>;\n}\n",
    );
    assert.equal(result.language, "TSX");
    assert.deepEqual(flat(result.symbols), ["function App 1-3"]);
  });
});

// ---------------------------------------------------------------- Python

const PY_SAMPLE = [
  "import os", // 1
  "from typing import List", // 2
  "", // 3
  "", // 4
  "def plain(x):", // 5
  '    """Return x unchanged.', // 6
  "", // 7
  "    More detail.", // 8
  '    """', // 9
  "    return x", // 10
  "", // 11
  "", // 12
  "@decorator", // 13
  "def decorated():", // 14
  "    pass", // 15
  "", // 16
  "", // 17
  "class Shape:", // 18
  '    """A geometric shape."""', // 19
  "", // 20
  "    def area(self):", // 21
  "        return 0", // 22
  "", // 23
  "    @property", // 24
  "    def name(self):", // 25
  '        return "shape"', // 26
  "",
].join("\n");

Deno.test("outlineSymbols() outlines Python: imports, decorated defs, classes, docstrings", async () => {
  await withFiles({}, async (dir) => {
    const result = await outline(dir, "shapes.py", PY_SAMPLE);
    assert.equal(result.language, "Python");
    assert.equal(result.totalLines, 26);
    const imports = result.symbols.filter((s) => /import/.test(s.kind));
    assert.deepEqual(imports.map(lines), [[1, 1], [2, 2]]);

    const plain = named(result.symbols, "plain");
    assert.deepEqual(lines(plain), [5, 10]);
    assert.equal(plain.doc, "Return x unchanged.");

    const decorated = named(result.symbols, "decorated");
    assert.ok(
      [13, 14].includes(decorated.startLine),
      String(decorated.startLine),
    );
    assert.equal(decorated.endLine, 15);
    assert.equal(decorated.kind, plain.kind);

    const shape = result.symbols.find((s) => s.name === "Shape");
    assert.ok(shape, "Shape is top level");
    assert.equal(shape.kind, "class");
    assert.deepEqual(lines(shape), [18, 26]);
    assert.equal(shape.doc, "A geometric shape.");
    assert.deepEqual(shape.children.map((c) => c.name), ["area", "name"]);
    assert.deepEqual(lines(shape.children[0]), [21, 22]);
    assert.ok([24, 25].includes(shape.children[1].startLine));
    assert.equal(shape.children[1].endLine, 26);
    assert.deepEqual(
      result.symbols.filter((s) => !/import/.test(s.kind)).map((s) => s.name),
      ["plain", "decorated", "Shape"],
    );
  });
});

// ---------------------------------------------------------------- Go

const GO_SAMPLE = [
  "package main", // 1
  "", // 2
  "import (", // 3
  '\t"fmt"', // 4
  '\t"strings"', // 5
  ")", // 6
  "", // 7
  "// MaxSize is the limit.", // 8
  "const MaxSize = 10", // 9
  "", // 10
  "// Point is a 2D point.", // 11
  "// It is immutable.", // 12
  "type Point struct {", // 13
  "\tX int", // 14
  "\tY int", // 15
  "}", // 16
  "", // 17
  "// Dist returns the distance.", // 18
  "func (p Point) Dist() int {", // 19
  "\treturn p.X + p.Y", // 20
  "}", // 21
  "", // 22
  "// Hello greets.", // 23
  "func Hello(name string) string {", // 24
  '\treturn fmt.Sprintf("hi %s", strings.ToUpper(name))', // 25
  "}", // 26
  "",
].join("\n");

Deno.test("outlineSymbols() outlines Go with the issue's labels and // doc blocks", async () => {
  await withFiles({}, async (dir) => {
    const result = await outline(dir, "main.go", GO_SAMPLE);
    assert.equal(result.language, "Go");
    assert.equal(result.totalLines, 26);
    const pkg = result.symbols.find((s) => s.kind === "package");
    assert.ok(pkg);
    assert.equal(pkg.name, "main");
    assert.deepEqual(lines(pkg), [1, 1]);
    const imp = result.symbols.find((s) => s.kind === "import");
    assert.ok(imp);
    assert.deepEqual(lines(imp), [3, 6]);

    const max = named(result.symbols, "MaxSize");
    assert.equal(max.kind, "const");
    assert.deepEqual(lines(max), [9, 9]);
    assert.equal(max.doc, "MaxSize is the limit.");

    const point = named(result.symbols, "Point");
    assert.equal(point.kind, "type");
    assert.deepEqual(lines(point), [13, 16]);
    assert.equal(point.doc, "Point is a 2D point.");
    assert.deepEqual(flat(point.children), ["field X 14-14", "field Y 15-15"]);

    const dist = find(result.symbols, (s) => s.name.includes("Dist"));
    assert.ok(dist, "method Dist is listed");
    assert.equal(dist.kind, "method");
    assert.deepEqual(lines(dist), [19, 21]);
    assert.equal(dist.doc, "Dist returns the distance.");

    const hello = named(result.symbols, "Hello");
    assert.equal(hello.kind, "func");
    assert.deepEqual(lines(hello), [24, 26]);
    assert.equal(hello.doc, "Hello greets.");
  });
});

// ---------------------------------------------------------------- C / C++

const C_SAMPLE = [
  "#include <stdio.h>", // 1
  "", // 2
  "struct point {", // 3
  "  int x;", // 4
  "  int y;", // 5
  "};", // 6
  "", // 7
  "#ifdef USE_FAST", // 8
  "static int fast_add(int a, int b) {", // 9
  "  return a + b;", // 10
  "}", // 11
  "#else", // 12
  "static int slow_add(int a, int b) {", // 13
  "  return a + b;", // 14
  "}", // 15
  "#endif", // 16
  "", // 17
  "#if defined(X)", // 18
  "int *make_ptr(void) {", // 19
  "  return 0;", // 20
  "}", // 21
  "#endif", // 22
  "", // 23
  "int main(void) {", // 24
  "  return 0;", // 25
  "}", // 26
  "",
].join("\n");

Deno.test("outlineSymbols() finds C functions inside #ifdef/#else/#if blocks", async () => {
  await withFiles({}, async (dir) => {
    for (const name of ["a.c", "a.h"]) {
      const result = await outline(dir, name, C_SAMPLE);
      assert.equal(result.language, "C", name);
      assert.equal(result.totalLines, 26);
      const point = named(result.symbols, "point");
      assert.equal(point.kind, "struct");
      assert.deepEqual(lines(point), [3, 6]);
      assert.deepEqual(point.children.map((c) => [c.name, c.startLine]), [
        ["x", 4],
        ["y", 5],
      ]);
      assert.deepEqual(lines(named(result.symbols, "fast_add")), [9, 11]);
      assert.deepEqual(lines(named(result.symbols, "slow_add")), [13, 15]);
      assert.deepEqual(lines(named(result.symbols, "make_ptr")), [19, 21]);
      const main = named(result.symbols, "main");
      assert.deepEqual(lines(main), [24, 26]);
      assert.equal(named(result.symbols, "fast_add").kind, main.kind);
    }
  });
});

const CPP_SAMPLE = [
  "#include <string>", // 1
  "", // 2
  "namespace geo {", // 3
  "", // 4
  "/// A circle.", // 5
  "class Circle {", // 6
  " public:", // 7
  "  double area() const {", // 8
  "    return 3.14 * r * r;", // 9
  "  }", // 10
  "  double r;", // 11
  "};", // 12
  "", // 13
  "int helper(int x) {", // 14
  "  return x;", // 15
  "}", // 16
  "", // 17
  "}  // namespace geo", // 18
  "",
].join("\n");

Deno.test("outlineSymbols() nests a C++ class and function inside their namespace", async () => {
  await withFiles({}, async (dir) => {
    for (const ext of ["cpp", "cc", "cxx", "hpp", "hxx", "hh"]) {
      const result = await outline(dir, `geo.${ext}`, CPP_SAMPLE);
      assert.equal(result.language, "C++", ext);
      assert.equal(result.symbols.length, 1, flat(result.symbols).join("\n"));
      const geo = result.symbols[0];
      assert.equal(geo.kind, "namespace");
      assert.equal(geo.name, "geo");
      assert.deepEqual(lines(geo), [3, 18]);
      const circle = geo.children.find((c) => c.name === "Circle");
      assert.ok(circle, flat(result.symbols).join("\n"));
      assert.equal(circle.kind, "class");
      assert.deepEqual(lines(circle), [6, 12]);
      assert.equal(circle.doc, "A circle.");
      const helper = geo.children.find((c) => c.name === "helper");
      assert.ok(helper);
      assert.deepEqual(lines(helper), [14, 16]);
    }
  });
});

Deno.test("fileOutline() indents C++ namespace members four spaces", async () => {
  await withFiles({ "geo.cpp": CPP_SAMPLE }, async (dir) => {
    const text = await fileOutline("geo.cpp", { cwd: dir });
    const symbolLines = text.split("\n");
    assert.ok(symbolLines.includes("namespace geo (lines 3-18)"), text);
    assert.ok(
      symbolLines.includes("    class Circle (lines 6-12)  // A circle."),
      text,
    );
  });
});

// ---------------------------------------------------------------- Swift

const SWIFT_SAMPLE = [
  "import Foundation", // 1
  "", // 2
  "/// A 2D vector.", // 3
  "struct Vec {", // 4
  "    var x: Double", // 5
  "    var y: Double", // 6
  "", // 7
  "    init(x: Double, y: Double) {", // 8
  "        self.x = x", // 9
  "        self.y = y", // 10
  "    }", // 11
  "", // 12
  "    /// The length.", // 13
  "    func length() -> Double {", // 14
  "        return (x * x + y * y).squareRoot()", // 15
  "    }", // 16
  "}", // 17
  "", // 18
  "protocol Shape {", // 19
  "    func area() -> Double", // 20
  "}", // 21
  "", // 22
  "class Circle: Shape {", // 23
  "    func area() -> Double { return 1 }", // 24
  "}", // 25
  "", // 26
  "enum Dir { case up, down }", // 27
  "", // 28
  "extension Vec {", // 29
  "    func scaled() -> Vec { return self }", // 30
  "}", // 31
  "", // 32
  "func topLevel() {}", // 33
  "",
].join("\n");

Deno.test("outlineSymbols() outlines Swift with struct/class/enum/extension/protocol/func/init/var", async () => {
  await withFiles({}, async (dir) => {
    const result = await outline(dir, "vec.swift", SWIFT_SAMPLE);
    assert.equal(result.language, "Swift");
    assert.equal(result.totalLines, 33);
    const top = result.symbols.filter((s) => s.kind !== "import");
    assert.deepEqual(
      top.map((s) => `${s.kind} ${s.name} ${s.startLine}-${s.endLine}`),
      [
        "struct Vec 4-17",
        "protocol Shape 19-21",
        "class Circle 23-25",
        "enum Dir 27-27",
        "extension Vec 29-31",
        "func topLevel 33-33",
      ],
    );
    const vec = top[0];
    assert.equal(vec.doc, "A 2D vector.");
    const members = vec.children.map((c) =>
      `${c.kind} ${c.startLine}-${c.endLine}`
    );
    assert.deepEqual(members, [
      "var 5-5",
      "var 6-6",
      "init 8-11",
      "func 14-16",
    ]);
    assert.deepEqual(
      vec.children.filter((c) => c.kind === "var").map((c) => c.name),
      [
        "x",
        "y",
      ],
    );
    const length = vec.children[3];
    assert.equal(length.name, "length");
    assert.equal(length.doc, "The length.");
  });
});

// ---------------------------------------------------------------- Kotlin

const KOTLIN_SAMPLE = [
  "package demo", // 1
  "", // 2
  "import kotlin.math.sqrt", // 3
  "", // 4
  "/**", // 5
  " * A point in space.", // 6
  " */", // 7
  "data class Point(val x: Double, val y: Double) {", // 8
  "    fun norm(): Double {", // 9
  "        return sqrt(x * x + y * y)", // 10
  "    }", // 11
  "}", // 12
  "", // 13
  "object Registry {", // 14
  "    val items = mutableListOf<String>()", // 15
  "}", // 16
  "", // 17
  "typealias Name = String", // 18
  "", // 19
  "val origin = Point(0.0, 0.0)", // 20
  "", // 21
  "fun main() {", // 22
  "    println(origin.norm())", // 23
  "}", // 24
  "",
].join("\n");

Deno.test("outlineSymbols() outlines Kotlin classes, objects, functions, properties and KDoc", async () => {
  await withFiles({}, async (dir) => {
    for (const ext of ["kt", "kts"]) {
      const result = await outline(dir, `point.${ext}`, KOTLIN_SAMPLE);
      assert.equal(result.language, "Kotlin");
      assert.equal(result.totalLines, 24);
      const point = named(result.symbols, "Point");
      assert.match(point.kind, /^(data )?class$/);
      assert.deepEqual(lines(point), [8, 12]);
      assert.equal(point.doc, "A point in space.");
      const norm = point.children.find((c) => c.name === "norm");
      assert.ok(norm, flat(result.symbols).join("\n"));
      assert.deepEqual(lines(norm), [9, 11]);
      const registry = named(result.symbols, "Registry");
      assert.equal(registry.kind, "object");
      assert.deepEqual(lines(registry), [14, 16]);
      assert.deepEqual(registry.children.map((c) => [c.name, c.startLine]), [
        ["items", 15],
      ]);
      assert.deepEqual(lines(named(result.symbols, "Name")), [18, 18]);
      assert.deepEqual(lines(named(result.symbols, "origin")), [20, 20]);
      const main = named(result.symbols, "main");
      assert.deepEqual(lines(main), [22, 24]);
      assert.equal(main.kind, norm.kind);
    }
  });
});

// ---------------------------------------------------------------- Dart

const DART_SAMPLE = [
  "import 'dart:math';", // 1
  "", // 2
  "/// A counter.", // 3
  "class Counter {", // 4
  "  int value = 0;", // 5
  "", // 6
  "  /// Adds one.", // 7
  "  void increment() {", // 8
  "    value++;", // 9
  "  }", // 10
  "}", // 11
  "", // 12
  "enum Mode { on, off }", // 13
  "", // 14
  "mixin Loud {", // 15
  "  void shout() {}", // 16
  "}", // 17
  "", // 18
  "extension Twice on int {", // 19
  "  int twice() => this * 2;", // 20
  "}", // 21
  "", // 22
  "/// Squares x.", // 23
  "int square(int x) {", // 24
  "  return x * x;", // 25
  "}", // 26
  "", // 27
  "void main() {", // 28
  "  print(square(3));", // 29
  "}", // 30
  "",
].join("\n");

Deno.test("outlineSymbols() outlines Dart with signatures spanning to the end of their body", async () => {
  await withFiles({}, async (dir) => {
    const result = await outline(dir, "counter.dart", DART_SAMPLE);
    assert.equal(result.language, "Dart");
    assert.equal(result.totalLines, 30);
    const counter = named(result.symbols, "Counter");
    assert.equal(counter.kind, "class");
    assert.deepEqual(lines(counter), [4, 11]);
    assert.equal(counter.doc, "A counter.");
    const increment = counter.children.find((c) => c.name === "increment");
    assert.ok(increment, flat(result.symbols).join("\n"));
    assert.deepEqual(lines(increment), [8, 10]);
    assert.equal(increment.doc, "Adds one.");
    const mode = named(result.symbols, "Mode");
    assert.equal(mode.kind, "enum");
    assert.deepEqual(lines(mode), [13, 13]);
    const loud = named(result.symbols, "Loud");
    assert.equal(loud.kind, "mixin");
    assert.deepEqual(lines(loud), [15, 17]);
    const twice = named(result.symbols, "Twice");
    assert.equal(twice.kind, "extension");
    assert.deepEqual(lines(twice), [19, 21]);
    const square = named(result.symbols, "square");
    assert.deepEqual(lines(square), [24, 26]);
    assert.equal(square.doc, "Squares x.");
    assert.deepEqual(lines(named(result.symbols, "main")), [28, 30]);
    assert.deepEqual(lines(named(result.symbols, "shout")), [16, 16]);
  });
});

// ---------------------------------------------------------------- Markdown

const MD_SAMPLE = [
  "# Title", // 1
  "", // 2
  "Intro.", // 3
  "", // 4
  "## Part A", // 5
  "", // 6
  "```sh", // 7
  "# not a heading", // 8
  "```", // 9
  "", // 10
  "### Detail", // 11
  "~~~", // 12
  "## also not a heading", // 13
  "~~~", // 14
  "", // 15
  "Part B", // 16
  "------", // 17
  "", // 18
  "body", // 19
  "", // 20
  "Second Title", // 21
  "============", // 22
  "end", // 23
  "",
].join("\n");

function headingText(name: string): string {
  return name.replace(/^#+\s*/, "");
}

Deno.test("outlineSymbols() nests Markdown ATX and setext headings, ignoring fenced code", async () => {
  await withFiles({}, async (dir) => {
    for (const ext of ["md", "mdx", "markdown"]) {
      const result = await outline(dir, `doc.${ext}`, MD_SAMPLE);
      assert.equal(result.language, "Markdown", ext);
      assert.equal(result.totalLines, 23);
      const shape = (symbols: OutlineSymbol[]): unknown[] =>
        symbols.map((s) => [
          headingText(s.name),
          s.startLine,
          s.endLine,
          shape(s.children),
        ]);
      assert.deepEqual(shape(result.symbols), [
        ["Title", 1, 20, [
          ["Part A", 5, 15, [["Detail", 11, 15, []]]],
          ["Part B", 16, 20, []],
        ]],
        ["Second Title", 21, 23, []],
      ], ext);
    }
  });
});

// ---------------------------------------------------------------- maxSymbols, size

Deno.test("fileOutline() caps the listing at maxSymbols and says how many were left out", async () => {
  await withFiles({ "many.ts": manyFunctions(30) }, async (dir) => {
    const text = await fileOutline("many.ts", { cwd: dir, maxSymbols: 5 });
    const listed = text.split("\n").filter((l) => /^function fn\d+ /.test(l));
    assert.deepEqual(listed, [
      "function fn0 (lines 1-3)",
      "function fn1 (lines 4-6)",
      "function fn2 (lines 7-9)",
      "function fn3 (lines 10-12)",
      "function fn4 (lines 13-15)",
    ]);
    const last = text.trimEnd().split("\n").at(-1)!;
    assert.match(last, /\b25\b/);
    assert.doesNotMatch(last, /^function /);
    const full = await fileOutline("many.ts", { cwd: dir });
    assert.equal(
      full.split("\n").filter((l) => /^function fn\d+ /.test(l)).length,
      30,
    );
    assert.doesNotMatch(full, /\b25 (more|symbols|omitted)/);
  });
});

Deno.test("outlineSymbols() outlines a file over 100 KB", async () => {
  const source = manyFunctions(3000);
  assert.ok(source.length > 100 * 1024);
  await withFiles({ "big.ts": source }, async (dir) => {
    const result = await outlineSymbols("big.ts", { cwd: dir });
    assert.equal(result.totalLines, 9000);
    assert.equal(result.symbols.length, 3000);
    assert.deepEqual(flat([result.symbols[2999]]), [
      "function fn2999 8998-9000",
    ]);
    const text = await fileOutline("big.ts", { cwd: dir });
    assert.match(text, /^Total lines: 9000$/m);
  });
});

// ---------------------------------------------------------------- errors

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof Error);
    return error;
  }
  assert.fail("expected a rejection");
}

Deno.test("fileOutline() and outlineSymbols() refuse an unsupported extension, listing the supported ones", async () => {
  await withFiles({ "notes.xyz": "hello\n" }, async (dir) => {
    const error = await rejection(fileOutline("notes.xyz", { cwd: dir }));
    assert.match(error.message, /notes\.xyz/);
    for (
      const ext of [
        ".ts",
        ".py",
        ".go",
        ".c",
        ".cpp",
        ".swift",
        ".kt",
        ".dart",
        ".md",
      ]
    ) {
      assert.ok(
        error.message.includes(ext),
        `${ext} missing from: ${error.message}`,
      );
    }
    const again = await rejection(outlineSymbols("notes.xyz", { cwd: dir }));
    assert.match(again.message, /\.tsx/);
  });
});

Deno.test("fileOutline() and outlineSymbols() refuse a missing or binary file, naming the path", async () => {
  const binary = new Uint8Array([
    0x7f,
    0x45,
    0x4c,
    0x46,
    0,
    0,
    0,
    1,
    2,
    0,
    0,
    0,
    255,
    254,
  ]);
  await withFiles({ "bin.ts": binary }, async (dir) => {
    const missing = await rejection(
      outlineSymbols("src/gone.ts", { cwd: dir }),
    );
    assert.match(missing.message, /src\/gone\.ts/);
    const missingText = await rejection(
      fileOutline("src/gone.ts", { cwd: dir }),
    );
    assert.match(missingText.message, /src\/gone\.ts/);
    const bin = await rejection(outlineSymbols("bin.ts", { cwd: dir }));
    assert.match(bin.message, /bin\.ts/);
    assert.match(bin.message, /binary/i);
  });
});

Deno.test("outlineSymbols() names a corrupt grammar in grammarsDir, then keeps serving", async () => {
  await withFiles({
    "grammars/tree-sitter-go.wasm": new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]),
    "a.go": "package a\n\nfunc A() {}\n",
  }, async (dir) => {
    const error = await rejection(
      outlineSymbols("a.go", { cwd: dir, grammarsDir: `${dir}/grammars` }),
    );
    assert.match(error.message, /a\.go/);
    assert.ok(
      error.message.includes(`${dir}/grammars/tree-sitter-go.wasm`),
      error.message,
    );
    const good = await outlineSymbols("a.go", { cwd: dir });
    assert.deepEqual(lines(named(good.symbols, "A")), [3, 3]);
  });
});

// ---------------------------------------------------------------- cache

Deno.test("outlineSymbols() re-parses a file changed on disk and answers an unchanged one the same", async () => {
  await withFiles({ "live.ts": "export function one() {}\n" }, async (dir) => {
    const first = await outlineSymbols("live.ts", { cwd: dir });
    assert.deepEqual(flat(first.symbols), ["function one 1-1"]);
    const again = await outlineSymbols("live.ts", { cwd: dir });
    assert.deepEqual(again, first);
    assert.equal(
      await fileOutline("live.ts", { cwd: dir }),
      await fileOutline("live.ts", { cwd: dir }),
    );

    await Deno.writeTextFile(
      `${dir}/live.ts`,
      "export function one() {}\nexport function two() {}\n",
    );
    const grown = await outlineSymbols("live.ts", { cwd: dir });
    assert.deepEqual(flat(grown.symbols), [
      "function one 1-1",
      "function two 2-2",
    ]);

    // Same size, new content and a new modification time.
    await Deno.writeTextFile(
      `${dir}/live.ts`,
      "export function uno() {}\nexport function dos() {}\n",
    );
    const later = new Date(Date.now() + 5_000);
    await Deno.utime(`${dir}/live.ts`, later, later);
    const renamed = await outlineSymbols("live.ts", { cwd: dir });
    assert.deepEqual(flat(renamed.symbols), [
      "function uno 1-1",
      "function dos 2-2",
    ]);
  });
});

Deno.test("outlineSymbols() hands out copies: changing a result does not change later answers", async () => {
  await withFiles({ "k.ts": "export function keep() {}\n" }, async (dir) => {
    const first = await outlineSymbols("k.ts", { cwd: dir });
    first.symbols[0].name = "changed";
    first.symbols.push({
      kind: "x",
      name: "y",
      startLine: 1,
      endLine: 1,
      children: [],
    });
    first.totalLines = 99;
    const second = await outlineSymbols("k.ts", { cwd: dir });
    assert.equal(second.totalLines, 1);
    assert.deepEqual(flat(second.symbols), ["function keep 1-1"]);
    assert.match(
      await fileOutline("k.ts", { cwd: dir }),
      /^function keep \(line 1\)$/m,
    );
  });
});

// ---------------------------------------------------------------- CLI

/** Runs `fello outline <args>` in `cwd`. */
function cli(args: string[], cwd: string) {
  return fello(["outline", ...args], { cwd });
}

Deno.test("fello outline <file> prints the outline; --json prints outlineSymbols() results", async () => {
  await withFiles({ "src/sample.ts": TS_SAMPLE }, async (dir) => {
    const text = await cli(["src/sample.ts"], dir);
    assert.equal(text.code, 0, text.stderr);
    assert.equal(text.stdout.trimEnd(), TS_EXPECTED);

    const json = await cli(["--json", "src/sample.ts"], dir);
    assert.equal(json.code, 0, json.stderr);
    const parsed = JSON.parse(json.stdout);
    const result = Array.isArray(parsed) ? parsed[0] : parsed;
    assert.equal(result.language, "TypeScript");
    assert.equal(result.totalLines, 28);
    assert.deepEqual(
      result.symbols.map((s: OutlineSymbol) => s.name),
      ["BaseAgentInfo", "add", "Greeter", "Id", "LIMIT", "counter", "Util"],
    );
    assert.equal(result.symbols[0].children[0].doc, "Unique id");
  });
});

Deno.test("fello outline <file> <file> prints both outlines; no progress bar reaches a pipe", async () => {
  await withFiles({
    "a.ts": "export function a() {}\n",
    "b.go": "package b\n\nfunc B() {}\n",
  }, async (dir) => {
    const run = await cli(["a.ts", "b.go"], dir);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^File: a\.ts$/m);
    assert.match(run.stdout, /^File: b\.go$/m);
    assert.match(run.stdout, /^func B \(line 3\)$/m);
    assert.ok(!run.stderr.includes("\r"), run.stderr);
  });
});

Deno.test("fello outline names a missing file on stderr, fails, and still prints the others cleanly", async () => {
  await withFiles({ "a.ts": "export function a() {}\n" }, async (dir) => {
    const run = await cli(["gone.ts", "a.ts"], dir);
    assert.notEqual(run.code, 0);
    assert.match(run.stderr, /gone\.ts/);
    assert.ok(
      run.stdout.startsWith("File: a.ts\n"),
      JSON.stringify(run.stdout),
    );
  });
});

Deno.test("fello outline <folder> skips .git, node_modules and .gitignore'd files, by any path", async () => {
  await withFiles({
    ".gitignore": "ignored.ts\nbuild/\n",
    "keep.ts": "export function kept() {}\n",
    "sub/also.py": "def also():\n    pass\n",
    "README.md": "# Readme\n",
    "notes.txt": "plain text\n",
    "ignored.ts": "export function ignoredFn() {}\n",
    "build/out.ts": "export function buildFn() {}\n",
    "node_modules/pkg/index.ts": "export function moduleFn() {}\n",
    ".git/hooks/h.ts": "function gitFn() {}\n",
  }, async (dir) => {
    const run = await cli(["."], dir);
    assert.equal(run.code, 0, run.stderr);
    for (const name of ["kept", "also", "Readme"]) {
      assert.match(run.stdout, new RegExp(`\\b${name}\\b`), run.stdout);
    }
    for (const name of ["ignoredFn", "buildFn", "moduleFn", "gitFn"]) {
      assert.doesNotMatch(run.stdout, new RegExp(name), run.stdout);
    }
    assert.equal(run.stdout.match(/^File: /gm)?.length, 3, run.stdout);

    const json = await cli(["--json", dir], "/");
    assert.equal(json.code, 0, json.stderr);
    assert.doesNotMatch(json.stdout, /moduleFn|gitFn|ignoredFn|buildFn/);
    assert.match(json.stdout, /"kept"/);
  });
});
