// codeBodies(): which braces of a Swift text hold code (skipped by the
// outline's parse) and which hold declarations (scanned), past strings,
// comments and closures, and when the scan gives up.
import assert from "node:assert/strict";
import { lines } from "../../../tests/support/outline_languages.ts";
import { codeBodies } from "./_code_bodies.ts";

// The text inside each code body, trimmed (braces with nothing between them
// have no range); undefined when the scan gives up.
function bodiesOf(text: string): string[] | undefined {
  return codeBodies(text)?.map(([start, end]) => text.slice(start, end).trim());
}

// Lines whose braces are not code.
const QUOTED = [
  '  let a = "}\\(g("{"))"',
  '  let b = #"}\\"# + ##"}"#"##',
  '  let c = """',
  "  }",
  '  """',
  "  // }",
  "  /* } /* } */ } */",
  "  let d = #/}/#",
];

const CASES: { name: string; text: string; bodies: string[] | undefined }[] = [
  {
    name: "functions, initializers, subscripts and properties hold code",
    text: lines(
      "class A {",
      "  init(x: Int) { self.x = x }",
      "  deinit { close() }",
      "  func f() -> Int { 1 }",
      "  subscript(i: Int) -> Int { i }",
      "  var y: Int { get { 1 } set { } }",
      "  lazy var z = { make() }()",
      "  var w = 0 { didSet { log() } }",
      "}",
    ),
    bodies: [
      "self.x = x",
      "close()",
      "1",
      "i",
      "get { 1 } set { }",
      "make()",
      "didSet { log() }",
    ],
  },
  {
    name: "type bodies at any depth are scanned",
    text: lines(
      "public struct S {",
      "  enum E { case a; func g() { } }",
      "  extension X where T: P {}",
      "  actor Q { func h() { run() } }",
      "}",
      "final class C: B<(Int) -> Void> { class func k() { go() } }",
    ),
    bodies: ["", "run()", "go()"],
  },
  {
    name: "protocols' requirements and protocol P: class stay",
    text: lines(
      "protocol P: class {",
      "  var x: Int { get set }",
      "  subscript(i: Int) -> Int { get }",
      "}",
      "func f() { x }",
    ),
    bodies: ["x"],
  },
  {
    name: "braces in strings, raw strings, interpolations and comments",
    text: lines("func f() {", ...QUOTED, "}", "var `default`: Int { 0 }"),
    bodies: [lines(...QUOTED).trim(), "0"],
  },
  {
    name: "closures inside parentheses belong to the declaration",
    text: lines(
      "func f(done: () -> Void = { }) { work() }",
      "@Attr(make: { 1 }) func g() { more() }",
      "let x = Foo.init { }",
    ),
    bodies: ["work()", "more()", ""],
  },
  {
    name: "top-level statements stay unless a declaration opened them",
    text: lines("import UIKit", "if ready { go() }", "#Preview { View() }"),
    bodies: [],
  },
  {
    name: "an unbalanced brace gives up",
    text: lines("struct S {", "  func f() {", "}"),
    bodies: undefined,
  },
  {
    name: "a stray closing brace gives up",
    text: lines("func f() { }", "}"),
    bodies: undefined,
  },
  {
    name: "an unterminated string gives up",
    text: lines("func f() {", '  let s = "open', "}"),
    bodies: undefined,
  },
  {
    name: "an unterminated comment gives up",
    text: lines("func f() { }", "/* open"),
    bodies: undefined,
  },
];

for (const { name, text, bodies } of CASES) {
  Deno.test(`codeBodies(): ${name}`, () => {
    assert.deepEqual(bodiesOf(text), bodies);
  });
}

Deno.test("codeBodies() gives each body's offsets inside its braces", () => {
  const text = "struct S {\n  func f() {\n    g()\n  }\n}\n";
  const [[start, end]] = codeBodies(text)!;
  assert.equal(text[start - 1], "{");
  assert.equal(text[end], "}");
  assert.equal(text.slice(start, end), "\n    g()\n  ");
});

Deno.test("codeBodies() gives up on interpolations nested past 16 strings, without running out of stack", () => {
  const deep = (n: number) =>
    `func f() {\n  let s = ${'"\\('.repeat(n)}1${')"'.repeat(n)}\n}\n`;
  assert.equal(codeBodies(deep(5000)), undefined);
  assert.equal(bodiesOf(deep(10))?.length, 1);
});

Deno.test("codeBodies() reads a megabyte of #s or backticks on one line in one pass", () => {
  for (const run of ["#", "`"]) {
    const text = `struct S {\n  func f() {\n${run.repeat(1 << 20)}\n  }\n}\n`;
    const start = performance.now();
    assert.equal(codeBodies(text)?.length, 1);
    // Read one at a time each took the rest of the run: minutes.
    assert.ok(performance.now() - start < 5000);
  }
});

Deno.test("codeBodies() reads past a byte order mark", () => {
  assert.deepEqual(bodiesOf("\uFEFFstruct S {\n  func f() { g() }\n}\n"), [
    "g()",
  ]);
});
