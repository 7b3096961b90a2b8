// A Swift outline parses the file without its code bodies (see
// LanguageSpec.codeBodies): it lists what a whole parse lists, and what
// needs the bodies (the repo map's identifiers, syntax checks) still gets
// the whole file.
import assert from "node:assert/strict";
import { join } from "node:path";
import { Outliner } from "./outliner.ts";
import { lines } from "../tests/support/outline_languages.ts";

const SAMPLE = lines(
  "import UIKit",
  "",
  "/// A protocol.",
  "protocol Shape: class {",
  "  var area: Double { get }",
  "  subscript(i: Int) -> Int { get set }",
  "}",
  "",
  "public final class Circle: Shape {",
  '  static let `default` = Circle(label: "}")',
  "  var area: Double { .pi * r * r }",
  "  lazy var cache = { [String: Int]() }()",
  "  var r = 1.0 { didSet { redraw() } }",
  '  init(label: String = { "{" }()) {',
  '    print("\\(label) {", #"}"#)',
  "  }",
  "  /* } /* { */ */",
  "  func redraw() { if r > 0 { draw() } }",
  "  enum Kind { case small, large",
  "    func next() -> Kind { .large }",
  "  }",
  "}",
  "",
  "extension Circle where Self: AnyObject {",
  "  struct Inner { let x: Int; func y() {} }",
  "}",
  "",
  "func top() -> Int { Circle().helperOnlyUsedHere() }",
);

async function withSwift(
  text: string,
  run: (outliner: Outliner, path: string) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "a.swift");
  await Deno.writeTextFile(path, text);
  const outliner = new Outliner({ workers: 1 });
  try {
    await run(outliner, path);
  } finally {
    await outliner.terminate();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("a Swift outline lists what a whole parse of the file lists", async () => {
  await withSwift(SAMPLE, async (outliner, path) => {
    const outline = await outliner.outline(path);
    // outlineWithNames() always parses the whole file.
    const { result } = await outliner.outlineWithNames(path);
    assert.deepEqual(outline.symbols, result.symbols);
    const circle = outline.symbols.find((s) => s.name === "Circle")!;
    assert.deepEqual(
      circle.children.map((s) => `${s.kind} ${s.name} ${s.startLine}`),
      [
        "let `default` 10",
        "var area 11",
        "var cache 12",
        "var r 13",
        "init init(label:) 14",
        "func redraw 18",
        "enum Kind 19",
      ],
    );
  });
});

Deno.test("a Swift file whose braces the scan cannot match is outlined from a whole parse", async () => {
  // A bare regex literal's brace counts as one to the scan.
  const text = lines(
    "struct S {",
    "  func f() -> Regex<Substring> { /{/ }",
    "  func g() {}",
    "}",
  );
  await withSwift(text, async (outliner, path) => {
    const outline = await outliner.outline(path);
    assert.deepEqual(
      outline.symbols[0].children.map((s) => `${s.name} ${s.startLine}`),
      ["f 2", "g 3"],
    );
  });
});

Deno.test("the repo map's identifiers of a Swift file include those inside function bodies", async () => {
  await withSwift(SAMPLE, async (outliner, path) => {
    await outliner.outline(path);
    const { names } = await outliner.outlineWithNames(path);
    assert.ok(names.includes("helperOnlyUsedHere"), names.join(" "));
    assert.ok(names.includes("redraw"));
  });
});

Deno.test("a syntax check after a Swift outline sees an error inside a function body", async () => {
  await withSwift(SAMPLE, async (outliner, path) => {
    await outliner.outline(path);
    const newText = SAMPLE.replace("{ draw() }", "{ draw( }");
    const found = await outliner.syntaxErrors(path, {
      oldText: SAMPLE,
      newText,
    });
    assert.equal(found?.before, 0);
    assert.ok((found?.after ?? 0) > 0);
    assert.deepEqual(found?.added.map((error) => error.line), [18]);
    // And the outline of the broken text is still right.
    await Deno.writeTextFile(path, newText);
    const broken = await outliner.outline(path);
    assert.ok(JSON.stringify(broken.symbols).includes('"redraw"'));
  });
});
