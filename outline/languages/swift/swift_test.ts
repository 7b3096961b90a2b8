// swift.extract(): the symbols of Swift files, through the real grammar and
// its repairs.
import assert, { deepStrictEqual } from "node:assert/strict";
import {
  extractText,
  fixtureLines,
  outlineLines,
} from "../../../tests/support/outline_languages.ts";
import { swift } from "./swift.ts";

Deno.test("swift.extract() lists types by their keyword, with members", async () => {
  deepStrictEqual(await fixtureLines(swift, "sample.swift"), [
    "protocol Drawable 6-12 // Something that can be drawn.",
    "    var bounds 8-8 // The bounding box.",
    "    func draw 9-9",
    "    init init(bounds:) 10-10",
    "    associatedtype Style 11-11",
    "class Circle 17-47 // A circle shape.",
    "    let radius 19-19",
    "    var x, y 20-20",
    "    var label 21-23",
    "    init init(radius:) 26-28 // Creates a circle.",
    "    init init?(_:) 30-33",
    "    deinit deinit 35-35",
    "    func draw 38-40",
    "    func unit 42-42",
    "    subscript subscript(_:) 44-44",
    "    enum Kind 46-46",
    "        case small, large 46-46",
    "struct Point 49-52",
    "    var x 50-50",
    "    var y 51-51",
    "enum Direction 54-60",
    "    case north, south 55-55",
    "    case east 56-56",
    "    func flipped 59-59 // The opposite direction.",
    "extension Circle 62-64",
    "    var description 63-63",
    "actor Counter 66-72",
    "    var value 67-67",
    "    func increment 68-71",
    "typealias Completion 74-74",
    "func parseShape 77-77 // Parses a shape.",
    "let defaultRadius 79-79",
    "var (width, height) 80-80",
  ]);
});

Deno.test("swift.extract() keeps members around an #if the grammar cannot read", async () => {
  const text = [
    "final class K {",
    "    var x = 1",
    "    #if os(iOS)",
    "    /// iOS only.",
    "    func ios() {}",
    "    #endif",
    "    func after() {}",
    "}",
    "",
  ].join("\n");
  deepStrictEqual(outlineLines(await extractText(swift, text)), [
    "class K 1-8",
    "    var x 2-2",
    "    func ios 5-5 // iOS only.",
    "    func after 7-7",
  ]);
});

Deno.test("swift.prepare() blanks #if, #elseif, #else and #endif lines and nothing else", () => {
  const text = [
    "struct S {",
    "  #if os(iOS) ||",
    "    os(tvOS) // (both",
    "  var a = 1",
    "\t#elseif swift(>=5.9)\r",
    '  var b = #"raw"#',
    "  #else",
    '  #warning("none")',
    "  #endif // canImport(X",
    "  var c = #selector(f)",
    "  #iffy",
    "}",
  ].join("\n");
  const blank = (line: string) => " ".repeat(line.length);
  assert.equal(
    swift.prepare!(text),
    [
      "struct S {",
      blank("  #if os(iOS) ||"),
      blank("    os(tvOS) // (both"),
      "  var a = 1",
      blank("\t#elseif swift(>=5.9)") + "\r",
      '  var b = #"raw"#',
      blank("  #else"),
      '  #warning("none")',
      blank("  #endif // canImport(X"),
      "  var c = #selector(f)",
      "  #iffy",
      "}",
    ].join("\n"),
  );
  assert.equal(swift.prepare!("let a = 1\n"), "let a = 1\n");
});

Deno.test("swift.extract() lists the members of every #if branch, parse after parse", async () => {
  const text = [
    "/// A session.",
    "open class Session {",
    "    let queue = 1",
    "    #if canImport(Combine)",
    "    /// A publisher.",
    "    func publisher() {}",
    "    #elseif !(os(Linux) || os(Windows))",
    "    func task() {}",
    "    #else",
    "    func fallback() {}",
    "    #endif",
    "    func after() {}",
    "}",
    "",
  ].join("\n");
  const expected = [
    "class Session 2-13 // A session.",
    "    let queue 3-3",
    "    func publisher 6-6 // A publisher.",
    "    func task 8-8",
    "    func fallback 10-10",
    "    func after 12-12",
  ];
  // The same outline each time (grammars_test.ts checks the trees agree).
  for (let i = 0; i < 3; i++) {
    deepStrictEqual(outlineLines(await extractText(swift, text)), expected);
  }
});

Deno.test("swift.extract() keeps the first branch of an #if block whose branches each open a body", async () => {
  const text = [
    "struct A {",
    "#if os(iOS)",
    '  func f() { // "{"',
    '    let s = "}"',
    "#else",
    "  func f() {",
    '    let s = #"{"#',
    "#endif",
    "    g()",
    "  }",
    "#if DEBUG",
    '  let debug = "{\\(x)"',
    "#else",
    "  let release = 1 /* } */",
    "#endif",
    "}",
    "struct After {}",
    "",
  ].join("\n");
  deepStrictEqual(outlineLines(await extractText(swift, text)), [
    "struct A 1-16",
    "    func f 3-10",
    "    let debug 12-12",
    "    let release 14-14",
    "struct After 17-17",
  ]);
});
