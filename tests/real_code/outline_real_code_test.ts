// Outlines of real published code: the libc headers under /usr/include, read
// as Objective-C (under `@class`) and as plain C; TypeScript's lib files,
// sqlite3.c, libstdc++'s stl_vector.h, Expo's Swift (also against a whole
// parse), CPython and Go sources outlined whole at any nesting depth; TypeScript's symbols read by name path.
import assert from "node:assert/strict";
import { createTools, outlineSymbols } from "../../mod.ts";
import type { OutlineSymbol } from "../../outline/types.ts";
import { cLines, objcLines } from "../support/objc_lines.ts";
import { packageFile } from "../support/npm_package.ts";
import { Outliner } from "../../outline/outliner.ts";
import { join } from "node:path";

// The symbol at the end of `path` (names from the top, `kind name` to tell
// a kind apart), or a failure listing what the last level holds.
function symbolAt(symbols: OutlineSymbol[], ...path: string[]): OutlineSymbol {
  let level = symbols;
  let found: OutlineSymbol | undefined;
  for (const step of path) {
    found = level.find((symbol) =>
      symbol.name === step || `${symbol.kind} ${symbol.name}` === step
    );
    assert.ok(
      found !== undefined,
      `${step} is missing from ${level.map((s) => s.name).slice(0, 20)}`,
    );
    level = found.children;
  }
  return found!;
}

// The 1-based line where `text` holds `line` first.
function lineOf(text: string, line: string): number {
  const at = text.indexOf(line);
  assert.ok(at >= 0, `no ${line}`);
  return text.slice(0, at).split("\n").length;
}

async function outlineOf(path: string): Promise<OutlineSymbol[]> {
  return (await outlineSymbols(path, { cwd: "/" })).symbols;
}

// A file of a Debian package that may be missing from a machine: the path,
// or undefined (the test then checks nothing, and says so).
async function onMachine(path: string): Promise<string | undefined> {
  try {
    await Deno.stat(path);
    return path;
  } catch {
    console.warn(`${path} is not on this machine: not checked`);
    return undefined;
  }
}

Deno.test("outlineSymbols() lists namespaces nested two deep and their interfaces' members in typescript.d.ts", async () => {
  const path = await packageFile("typescript@5.6.2", "lib/typescript.d.ts");
  const text = await Deno.readTextFile(path);
  const protocol = symbolAt(await outlineOf(path), "ts", "server", "protocol");
  const message = symbolAt(protocol.children, "interface Message");
  assert.equal(
    message.startLine,
    lineOf(text, "            export interface Message {"),
  );
  assert.deepEqual(
    message.children.map((member) => `${member.kind} ${member.name}`),
    ["property seq", "property type"],
  );
  // Every interface the namespace's lines declare.
  const lines = text.split("\n")
    .slice(protocol.startLine - 1, protocol.endLine);
  const declared =
    lines.filter((line) => /^\s+(?:export )?interface /.test(line)).length;
  const interfaces = protocol.children.filter((s) => s.kind === "interface");
  assert.equal(interfaces.length, declared);
  assert.ok(declared > 250, `${declared} interfaces`);
  const properties = interfaces.flatMap((s) => s.children)
    .filter((member) => member.kind === "property");
  assert.ok(properties.length > 500, `${properties.length} properties`);
});

Deno.test("outlineSymbols() lists the members of interfaces inside namespaces in lib.dom.d.ts and lib.es5.d.ts", async () => {
  const dom = await outlineOf(
    await packageFile("typescript@5.6.2", "lib/lib.dom.d.ts"),
  );
  const global = symbolAt(dom, "WebAssembly", "interface Global");
  assert.deepEqual(global.children.map((member) => member.name), [
    "value",
    "valueOf",
  ]);
  // `declare var Node: { prototype: Node; ... }` lists its members too.
  assert.ok(symbolAt(dom, "var NodeFilter", "FILTER_ACCEPT"));
  const es5 = await outlineOf(
    await packageFile("typescript@5.6.2", "lib/lib.es5.d.ts"),
  );
  assert.ok(symbolAt(es5, "Intl", "interface CollatorOptions", "usage"));
});

Deno.test("outlineSymbols() names what ai's index.ts re-exports", async () => {
  const path = await packageFile("ai@7.0.173", "src/index.ts");
  const names = (await outlineOf(path)).map((s) => `${s.kind} ${s.name}`);
  assert.ok(
    names.includes("export { toolSearch } from ./tool-search/tool-search"),
    names.join("\n"),
  );
});

Deno.test("outlineSymbols() lists the structs sqlite3.c declares in fields under their tags", async () => {
  const path = await packageFile(
    "better-sqlite3@12.4.1",
    "deps/sqlite3/sqlite3.c",
  );
  const text = await Deno.readTextFile(path);
  const symbols = await outlineOf(path);
  const info = symbolAt(symbols, "struct sqlite3_index_info");
  const constraint = symbolAt(info.children, "struct sqlite3_index_constraint");
  assert.equal(
    constraint.startLine,
    lineOf(text, "  struct sqlite3_index_constraint {"),
  );
  assert.deepEqual(constraint.children.map((field) => field.name), [
    "iColumn",
    "op",
    "usable",
    "iTermOffset",
  ]);
  assert.ok(symbolAt(info.children, "field aConstraint"));
  // Every type with a tag declared in a field outside function bodies, at
  // any depth (WhereLevel's InLoop sits in an untagged struct's field).
  const tagged = new Set<string>();
  const collect = (list: OutlineSymbol[], inType: boolean): void => {
    for (const symbol of list) {
      if (inType && /^(struct|union)$/.test(symbol.kind)) {
        tagged.add(symbol.name);
      }
      collect(symbol.children, symbol.kind !== "function");
    }
  };
  collect(symbols, false);
  for (
    const name of [
      "sqlite3_index_orderby",
      "sqlite3_index_constraint_usage",
      "_ht",
      "p4union",
      "sqlite3InitInfo",
      "sColMap",
      "AggInfo_col",
      "AggInfo_func",
      "ExprList_item",
      "IdList_item",
      "MemValue",
      "ShmRegion",
      "WalSegment",
      "DeferredCsr",
      "InLoop",
      "_fts3ht",
      "Fts3Index",
      "Fts3auxColstats",
    ]
  ) {
    assert.ok(tagged.has(name), `${name} is missing`);
  }
});

Deno.test("outlineSymbols() keeps libstdc++'s class vector whole in stl_vector.h", async () => {
  const path = await onMachine("/usr/include/c++/12/bits/stl_vector.h");
  if (path === undefined) return;
  const text = await Deno.readTextFile(path);
  const vector = symbolAt(await outlineOf(path), "std", "class vector");
  // The class ends at the `};` before the deduction guides.
  const end =
    text.split("\n").findIndex((line, i) =>
      i > vector.startLine && line === "    };"
    ) + 1;
  assert.ok(end > 2000, `class vector ends at ${end}`);
  assert.equal(vector.endLine, end);
  const members = vector.children.map((member) => member.name);
  for (const name of ["begin", "push_back", "_M_realloc_insert"]) {
    assert.ok(members.includes(name), `${name} is no member`);
  }
});

Deno.test("outlineSymbols() keeps libstdc++'s classes whose member templates have #if alternatives", async () => {
  const tree = await onMachine("/usr/include/c++/12/bits/stl_tree.h");
  const string = await onMachine("/usr/include/c++/12/bits/basic_string.h");
  if (tree === undefined || string === undefined) return;
  const rbTree = symbolAt(
    await outlineOf(tree),
    "namespace std",
    "class _Rb_tree",
  );
  const text = await Deno.readTextFile(tree);
  assert.equal(
    rbTree.startLine,
    lineOf(
      text,
      "  template<typename _Key, typename _Val, typename _KeyOfValue,\n\t   typename _Compare, typename _Alloc = allocator<_Val> >",
    ),
  );
  const members = rbTree.children.map((member) => member.name);
  for (const name of ["_Reuse_or_alloc_node", "_M_insert_unique", "swap"]) {
    assert.ok(members.includes(name), `${name} is no member`);
  }
  const basic = symbolAt(
    await outlineOf(string),
    "namespace std",
    "class basic_string",
  );
  assert.ok(
    basic.endLine - basic.startLine > 3000,
    `${basic.startLine}-${basic.endLine}`,
  );
});

Deno.test("outlineSymbols() lists the functions with backtick names of Expo's View extension", async () => {
  const path = await packageFile(
    "expo-modules-core@3.0.15",
    "ios/Core/Views/SwiftUI/View+Modifiers.swift",
  );
  const view = symbolAt(await outlineOf(path), "extension View");
  assert.deepEqual(
    view.children.map((member) => `${member.kind} ${member.name}`),
    ["func `if`", "func `let`"],
  );
});

Deno.test("every Swift file of Expo's iOS sources outlines without its code bodies as a whole parse does", async () => {
  const folder = await packageFile("expo-modules-core@3.0.15", "ios");
  const paths: string[] = [];
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) await walk(path);
      else if (entry.name.endsWith(".swift")) paths.push(path);
    }
  };
  await walk(folder);
  assert.ok(paths.length > 150, `${paths.length} files`);
  const outliner = new Outliner();
  try {
    for (const path of paths) {
      const outline = await outliner.outline(path);
      // outlineWithNames() always parses the whole file.
      const { result } = await outliner.outlineWithNames(path);
      assert.deepEqual(outline.symbols, result.symbols, path);
    }
  } finally {
    await outliner.terminate();
  }
});

Deno.test("outlineSymbols() names CPython's relative imports by what they bring in", async () => {
  const path = await onMachine("/usr/lib/python3.11/re/__init__.py");
  if (path === undefined) return;
  const text = await Deno.readTextFile(path);
  const symbols = await outlineOf(path);
  const line = lineOf(text, "from . import _compiler, _parser");
  const found = symbols.find((symbol) => symbol.startLine === line);
  assert.equal(found?.name, "._compiler, ._parser");
  // Module variables, as `__all__`.
  assert.ok(symbolAt(symbols, "var __all__"));
});

Deno.test("outlineSymbols() names every path of net/http's import group", async () => {
  const path = await onMachine("/usr/share/go-1.19/src/net/http/server.go");
  if (path === undefined) return;
  const text = await Deno.readTextFile(path);
  const group = text.slice(text.indexOf("import ("), text.indexOf("\n)\n"));
  const paths = [...group.matchAll(/"[^"]+"/g)].map((match) => match[0]);
  const imports = (await outlineOf(path)).find((s) => s.kind === "import")!;
  assert.ok(paths.length > 4);
  for (const importPath of paths) {
    assert.ok(imports.name.includes(importPath), `${importPath} is missing`);
  }
});

// libc6-dev headers, always present on Debian (resolv.h
// is left out: its `__BEGIN_DECLS` case has a test of its own).
const LIBC_HEADERS = [
  "stdio.h",
  "stdlib.h",
  "string.h",
  "unistd.h",
  "signal.h",
  "time.h",
  "pthread.h",
  "fcntl.h",
  "dirent.h",
  "netdb.h",
  "locale.h",
  "wchar.h",
  "math.h",
  "setjmp.h",
  "glob.h",
  "regex.h",
  "search.h",
  "inttypes.h",
  "ctype.h",
  "termios.h",
  "pwd.h",
  "dlfcn.h",
  "sched.h",
  "spawn.h",
  "wordexp.h",
  "iconv.h",
  "x86_64-linux-gnu/sys/socket.h",
  "x86_64-linux-gnu/sys/stat.h",
];

Deno.test("objc.extract() outlines plain C headers under @class as the C outline does", async () => {
  let compared = 0;
  for (const name of LIBC_HEADERS) {
    let text: string;
    try {
      text = await Deno.readTextFile(`/usr/include/${name}`);
    } catch {
      continue;
    }
    const header = `@class Foo;\n${text}`;
    // At least as well: every symbol of the C outline, with its doc if it
    // has one. The Objective-C path blanks glibc's `__BEGIN_DECLS` and
    // `__END_DECLS`, which the grammar otherwise ran the declarations next to
    // them into (pthread.h: pthread_create from the `__BEGIN_DECLS` line, no
    // doc, and pthread_exit lost); there lines and docs may be better.
    const symbol = (line: string) =>
      line.trim().replace(/ \d+-\d+( \/\/ .*)?$/, "");
    const objcSymbols = await objcLines(header);
    const plain = await cLines(header);
    assert.ok(plain.length > 0, `${name}: no C symbols`);
    const names = objcSymbols.map(symbol);
    for (const line of plain) {
      assert.ok(names.includes(symbol(line)), `${name}: ${line} is missing`);
      const doc = line.split(" // ")[1];
      if (doc === undefined) continue;
      assert.ok(
        objcSymbols.some((l) =>
          symbol(l) === symbol(line) && l.endsWith(` // ${doc}`)
        ),
        `${name}: ${line} lost its doc`,
      );
    }
    compared++;
  }
  assert.ok(compared >= 20, `only ${compared} libc headers found`);
});

Deno.test("ReadFile symbol reads ts.server.protocol.Message of typescript.d.ts and WebAssembly.Global.value of lib.dom.d.ts by name", async () => {
  const lib = await packageFile("typescript@5.6.2", "lib/typescript.d.ts");
  const text = await Deno.readTextFile(lib);
  const tools = createTools({ cwd: "/", permissionMode: "allow" });
  const message = await tools.ReadFile.execute({
    path: lib,
    symbol: "ts.server.protocol.Message",
  });
  const start = lineOf(text, "            export interface Message {");
  // Its JSDoc block sits right above it.
  assert.equal(message.symbol?.name, "ts.server.protocol.Message");
  assert.equal(message.symbol?.kind, "interface");
  assert.ok(message.startLine < start, `doc from ${message.startLine}`);
  assert.match(message.content, /^\s*\/\*\*/);
  assert.match(message.content, /export interface Message \{[^]*\n\s*\}\n$/);
  // A suffix unique in the file names it too; a shared one lists everyone.
  const bySuffix = await tools.ReadFile.execute({
    path: lib,
    symbol: "protocol.Message",
  });
  assert.equal(bySuffix.content, message.content);
  await assert.rejects(
    tools.ReadFile.execute({ path: lib, symbol: "Message" }),
    /"Message" names \d+ symbols: .*interface ts\.server\.protocol\.Message \(lines \d+-\d+\)/,
  );
  const dom = await packageFile("typescript@5.6.2", "lib/lib.dom.d.ts");
  const value = await tools.ReadFile.execute({
    path: dom,
    symbol: "WebAssembly.Global.value",
  });
  assert.equal(value.symbol?.kind, "property");
  assert.match(value.content, /^\s*value: /m);
});
