// The Swift outline: swift.extract() on fixtures and snippets: types by their
// keyword, members, #if blocks, try/await and nonisolated(unsafe), doc
// comments.
import assert, { deepStrictEqual } from "node:assert/strict";
import {
  extractLines,
  lines,
  testExtract,
  testFixture,
} from "../../../tests/support/outline_languages.ts";
import { swift } from "./swift.ts";

testFixture(swift, {
  name: "swift.extract() lists types by their keyword, with members",
  file: "sample.swift",
  outline: [
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
  ],
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
    deepStrictEqual(await extractLines(swift, text), expected);
  }
});

testExtract(swift, [
  {
    name: "swift.extract() keeps members around an #if the grammar cannot read",
    text: [
      "final class K {",
      "    var x = 1",
      "    #if os(iOS)",
      "    /// iOS only.",
      "    func ios() {}",
      "    #endif",
      "    func after() {}",
      "}",
      "",
    ].join("\n"),
    outline: [
      "class K 1-8",
      "    var x 2-2",
      "    func ios 5-5 // iOS only.",
      "    func after 7-7",
    ],
  },
  {
    name:
      "swift.extract() keeps the first branch of an #if block whose branches each open a body",
    text: [
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
    ].join("\n"),
    outline: [
      "struct A 1-16",
      "    func f 3-10",
      "    let debug 12-12",
      "    let release 14-14",
      "struct After 17-17",
    ],
  },
  {
    name: "swift.extract() reads a nonisolated(unsafe) property",
    text: lines(
      "final class ImageLoader {",
      "  nonisolated(unsafe) static let shared = ImageLoader()",
      "  nonisolated(unsafe) var cache = [String: Int]()",
      "  func load() {}",
      "}",
    ),
    outline: [
      "class ImageLoader 1-5",
      "    let shared 2-2",
      "    var cache 3-3",
      "    func load 4-4",
    ],
  },
  {
    name: "swift.extract() reads a /** */ doc above swiftlint directive lines",
    text: lines(
      "/**",
      " An internal class adopting a public protocol.",
      " */",
      "// swiftlint:disable lower_acl_than_parent",
      "// swiftlint:disable file_length",
      "open class CapacitorBridge: NSObject {",
      "}",
      "",
      "/// A list.",
      "// swiftlint:disable:next type_name",
      "struct RegistrationList {}",
    ),
    outline: [
      "class CapacitorBridge 6-7 // An internal class adopting a public protocol.",
      "struct RegistrationList 11-11 // A list.",
    ],
  },
  {
    name: "swift.extract() reads one header of a type split by #if/#else",
    text: lines(
      "#if os(iOS)",
      "extension ChartView: UIViewRepresentable {",
      "#else",
      "extension ChartView: NSViewRepresentable {",
      "#endif",
      "  func update() {}",
      "}",
      "",
      "struct After {}",
    ),
    outline: [
      "extension ChartView 2-7",
      "    func update 6-6",
      "struct After 9-9",
    ],
  },
  {
    name: "swift.extract() keeps a type whose body has #if canImport(...)",
    text: lines(
      "class S {",
      "    func a() {}",
      "    #if canImport(Combine)",
      "    func p() {}",
      "    #endif",
      "}",
    ),
    outline: [
      "class S 1-6",
      "    func a 2-2",
      "    func p 4-4",
    ],
  },
  {
    name: "swift.extract() keeps try, await and (unsafe) in doc comments",
    text: lines(
      "/// let x = try foo()",
      "func f() {}",
      "/// Use nonisolated(unsafe) for globals.",
      "func g() {}",
    ),
    outline: [
      "func f 2-2 // let x = try foo()",
      "func g 4-4 // Use nonisolated(unsafe) for globals.",
    ],
  },
  {
    name: "swift.extract() reads past `if let x = try? a.b {` in a method",
    text: lines(
      "/// The registry of all shared objects.",
      "public final class SharedObjectRegistry {",
      "  var size = 0",
      "",
      "  func add(_ id: Int) {",
      "    if let runtime = try? appContext?.runtime {",
      "      setUp(runtime)",
      "    }",
      "  }",
      "",
      "  func delete(_ id: Int) {}",
      "}",
    ),
    outline: [
      "class SharedObjectRegistry 2-12 // The registry of all shared objects.",
      "    var size 3-3",
      "    func add 5-9",
      "    func delete 11-11",
    ],
    also: [
      {
        text: lines(
          "func load() {",
          "  while let data = await stream.next {",
          "    use(data)",
          "  }",
          "}",
          "func save() {}",
        ),
        outline: [
          "func load 1-5",
          "func save 6-6",
        ],
      },
    ],
  },
]);
