import assert from "node:assert/strict";
import { docStartLine } from "./doc_start.ts";
import { namedSymbols, resolveNamePath } from "./name_path.ts";
import { outlineText } from "./outline.ts";

// Resolves `query` in `text`, outlined as the file `name`: "kind path a-b",
// the range starting at the doc comment as ReadFile reads it.
async function resolved(
  name: string,
  text: string,
  query: string,
): Promise<string> {
  const outline = await outlineText(`/virtual/${name}`, text);
  const lines = text.split("\n");
  const startOf = (symbol: Parameters<typeof docStartLine>[1]) =>
    docStartLine(lines, symbol, outline.language);
  const { path, symbol } = resolveNamePath(outline.symbols, query, {
    file: name,
    startOf,
  });
  return `${symbol.kind} ${path} ${startOf(symbol)}-${symbol.endLine}`;
}

async function failure(
  name: string,
  text: string,
  query: string,
): Promise<string> {
  const outline = await outlineText(`/virtual/${name}`, text);
  try {
    resolveNamePath(outline.symbols, query, { file: name });
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`"${query}" resolved in ${name}`);
}

const TS = `import { x } from "./x.ts";

/** Runs outlines. */
export class Outliner {
  /** Runs one. */
  run(): void {}

  static Inner = class {};
}

export namespace ts {
  export namespace server {
    export namespace protocol {
      /** A message. */
      export interface Message {
        seq: number;
      }
    }
  }
}

class Outer {
  method(): void {}
}
`;

Deno.test("resolveNamePath() names TypeScript members and nested namespaces by path, and a unique suffix alone", async () => {
  assert.equal(
    await resolved("a.ts", TS, "Outliner.run"),
    "method Outliner.run 5-6",
  );
  assert.equal(await resolved("a.ts", TS, "Outliner"), "class Outliner 3-9");
  assert.equal(
    await resolved("a.ts", TS, "ts.server.protocol.Message"),
    "interface ts.server.protocol.Message 14-17",
  );
  assert.equal(
    await resolved("a.ts", TS, "Message"),
    "interface ts.server.protocol.Message 14-17",
  );
  assert.equal(
    await resolved("a.ts", TS, "protocol.Message.seq"),
    "property ts.server.protocol.Message.seq 16-16",
  );
});

Deno.test("resolveNamePath() names nested Python classes, a decorated method starting at its decorator", async () => {
  const text = [
    "class Outer:",
    "    class Inner:",
    "        def f(self):",
    '            """Docstring inside."""',
    "",
    "    @staticmethod",
    "    def g():",
    "        pass",
    "",
  ].join("\n");
  assert.equal(
    await resolved("a.py", text, "Outer.Inner"),
    "class Outer.Inner 2-4",
  );
  assert.equal(await resolved("a.py", text, "Outer.g"), "method Outer.g 6-8");
});

Deno.test("resolveNamePath() names Go methods by their receiver's type", async () => {
  const text = [
    "package a",
    "",
    "// Server serves.",
    "type Server struct{}",
    "",
    "// Serve runs the server.",
    "// It blocks.",
    "func (s *Server) Serve() error {",
    "\treturn nil",
    "}",
    "",
    "func (List[T]) Len() int { return 0 }",
    "",
  ].join("\n");
  assert.equal(
    await resolved("a.go", text, "Server.Serve"),
    "method Server.Serve 6-10",
  );
  assert.equal(
    await resolved("a.go", text, "Serve"),
    "method Server.Serve 6-10",
  );
  assert.equal(
    await resolved("a.go", text, "List.Len"),
    "method List.Len 12-12",
  );
  assert.equal(await resolved("a.go", text, "Server"), "type Server 3-4");
});

Deno.test("resolveNamePath() writes C++ scopes ns::Class::method as ns.Class.method, and picks an overload by @LINE", async () => {
  const text = [
    "namespace ns {",
    "/// A class.",
    "class Class {",
    " public:",
    "  /// Adds ints.",
    "  int add(int a) { return a; }",
    "  /// Adds doubles.",
    "  double add(double a) { return a; }",
    "};",
    "}  // namespace ns",
    "",
    "void other::Thing::method() {}",
    "",
  ].join("\n");
  assert.equal(await resolved("a.cpp", text, "ns.Class"), "class ns.Class 2-9");
  assert.equal(
    await resolved("a.cpp", text, "other.Thing.method"),
    "function other.Thing.method 12-12",
  );
  assert.equal(
    await resolved("a.cpp", text, "Class.add@8"),
    "method ns.Class.add 7-8",
  );
  // A line of the doc comment picks it too.
  assert.equal(
    await resolved("a.cpp", text, "add@5"),
    "method ns.Class.add 5-6",
  );
  assert.equal(
    await failure("a.cpp", text, "add"),
    'Cannot read "a.cpp": "add" names 2 symbols: method ns.Class.add (lines 6-6), method ns.Class.add (lines 8-8); add @LINE with a line of the one you mean (for example "add@6")',
  );
  assert.match(
    await failure("a.cpp", text, "add@12"),
    /^Cannot read "a\.cpp": no symbol named "add" holds line 12; those there are method ns\.Class\.add \(lines 6-6\), method ns\.Class\.add \(lines 8-8\)$/,
  );
});

Deno.test("resolveNamePath() names Markdown headings under their parents: Intro.Install", async () => {
  const text =
    "# Intro\n\nHello.\n\n## Install\n\nRun it.\n\n# Usage\n\n## Install\n";
  assert.equal(
    await resolved("a.md", text, "Intro.Install"),
    "heading Intro.Install 5-8",
  );
  assert.equal(
    await resolved("a.md", text, "Usage.Install"),
    "heading Usage.Install 11-11",
  );
  assert.match(
    await failure("a.md", text, "Install"),
    /"Install" names 2 symbols: heading Intro\.Install \(lines 5-8\), heading Usage\.Install \(lines 11-11\); give the full name path, or add @LINE/,
  );
});

Deno.test("resolveNamePath() names symbols of C, JavaScript, Swift, Kotlin and Dart with their doc comments", async () => {
  const c =
    "/* A point. */\nstruct point {\n  int x;\n};\n\n/** Adds. */\nint add(int a) { return a; }\n";
  assert.equal(await resolved("a.c", c, "point.x"), "field point.x 3-3");
  assert.equal(await resolved("a.c", c, "add"), "function add 6-7");
  const js =
    "/**\n * Greets.\n */\nexport function greet() {}\n\nclass A {\n  m() {}\n}\n";
  assert.equal(await resolved("a.js", js, "greet"), "function greet 1-4");
  assert.equal(await resolved("a.js", js, "A.m"), "method A.m 7-7");
  const swift =
    "/// A shape.\n@objc\nclass Shape {\n    /// Its area.\n    func area() -> Double { 0 }\n}\n";
  assert.equal(
    await resolved("a.swift", swift, "Shape.area"),
    "func Shape.area 4-5",
  );
  assert.equal(await resolved("a.swift", swift, "Shape"), "class Shape 1-6");
  const kotlin =
    "/** A box. */\nclass Box {\n    /** Opens. */\n    @JvmStatic\n    fun open() {}\n}\n";
  assert.equal(await resolved("a.kt", kotlin, "Box.open"), "fun Box.open 3-5");
  const dart =
    "/// A widget.\nclass W {\n  /// Builds.\n  @override\n  void build() {}\n}\n";
  assert.equal(await resolved("a.dart", dart, "W.build"), "method W.build 3-5");
});

Deno.test("resolveNamePath() fails on an unknown name with the 5 nearest, each as kind path (lines a-b)", async () => {
  const message = await failure("a.ts", TS, "Outliner.runn");
  assert.equal(
    message.split("; ")[0],
    'Cannot read "a.ts": no symbol is named "Outliner.runn"',
  );
  const nearest = message.split("; ")[1].replace("the nearest names are ", "");
  const listed = nearest.split(/, (?=\w+ [\w.]+ \(lines)/);
  assert.equal(listed.length, 5);
  assert.equal(listed[0], "method Outliner.run (lines 6-6)");
  for (const entry of listed) {
    assert.match(entry, /^\w+ [\w.]+ \(lines \d+-\d+\)$/);
  }
  assert.match(message, /call file_outline on the file to see every name$/);
});

Deno.test("resolveNamePath() prefers a full path over longer paths ending with it", () => {
  const leaf = (name: string, line: number) => ({
    kind: "function",
    name,
    startLine: line,
    endLine: line,
    children: [],
  });
  const symbols = [leaf("run", 1), {
    ...leaf("A", 2),
    endLine: 4,
    children: [leaf("run", 3)],
  }];
  assert.equal(
    resolveNamePath(symbols, "run", { file: "a.ts" }).symbol.startLine,
    1,
  );
  assert.equal(
    resolveNamePath(symbols, "A.run", { file: "a.ts" }).symbol.startLine,
    3,
  );
  assert.deepEqual(namedSymbols(symbols).map((entry) => entry.path), [
    "run",
    "A",
    "A.run",
  ]);
});

Deno.test("docStartLine() takes a JSDoc one blank line above and the lint directives between a doc and its code", () => {
  const symbol = (startLine: number) => ({
    kind: "function",
    name: "f",
    startLine,
    endLine: startLine,
    doc: "Doc.",
    children: [],
  });
  assert.equal(
    docStartLine(
      ["x;", "/** Doc. */", "", "function f() {}"],
      symbol(4),
      "TypeScript",
    ),
    2,
  );
  assert.equal(
    docStartLine(
      ["/** Doc. */", "// eslint-disable-next-line no-var", "var f;"],
      symbol(3),
      "JavaScript",
    ),
    1,
  );
  // A run of line comments under a block comment: only the run is the doc.
  assert.equal(
    docStartLine(
      ["/* license */", "// Doc.", "// More.", "func f() {}"],
      symbol(4),
      "Go",
    ),
    2,
  );
  // Without a doc, or in Python (docstrings are inside), the symbol's own line.
  assert.equal(
    docStartLine(["// note", "f()"], { ...symbol(2), doc: undefined }, "Go"),
    2,
  );
  assert.equal(docStartLine(["# note", "def f():"], symbol(2), "Python"), 2);
});
