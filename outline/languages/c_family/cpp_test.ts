// cpp.extract(): the symbols of C++ files, through the real grammar.
import { deepStrictEqual } from "node:assert/strict";
import {
  extractText,
  fixtureLines,
  outlineLines,
} from "../../../tests/support/outline_languages.ts";
import { cpp } from "./cpp.ts";

Deno.test("cpp.extract() lists namespaces, classes with members, templates and qualified definitions", async () => {
  deepStrictEqual(await fixtureLines(cpp, "sample.cpp"), [
    "namespace geo 5-42",
    "    namespace shapes 6-37",
    "        class Shape 9-35 // A drawable shape.",
    "            method Shape 12-12 // Builds a shape with a name.",
    "            method ~Shape 13-13",
    "            method area 15-15",
    "            method name 16-16",
    "            method parse 17-17",
    "            method operator== 18-18",
    "            method accept 19-22",
    "            field name_ 26-26 // The display name.",
    "            field callback_ 27-27",
    "            struct Cache 30-32",
    "                field area 31-31",
    "            enum State 33-33",
    "                enumerator kFresh 33-33",
    "                enumerator kStale 33-33",
    "            using Ptr 34-34",
    "    function dist2 40-40 // Squared distance.",
    "namespace geo::io 44-46",
    "    function write 45-45",
    "function geo::shapes::Shape::Shape 49-49 // Out-of-class definitions.",
    "function geo::shapes::Shape::operator== 51-53",
    "struct Box 55-59",
    "    field value 57-57",
    "    method get 58-58",
    "function Box<T>::get 61-64",
    "function max_of 67-70 // Largest of two.",
    "typedef IntVec 72-72",
    "using Name 73-73",
    "function c_entry 76-76",
    "namespace (anonymous) 79-81",
    "    function hidden 80-80",
  ]);
});

Deno.test("cpp.extract() merges namespaces that only hold a namespace", async () => {
  const text = [
    "namespace a {",
    "namespace b {",
    "// The widget.",
    "struct W { int n; };",
    "}",
    "}",
    "",
  ].join("\n");
  deepStrictEqual(outlineLines(await extractText(cpp, text)), [
    "namespace a::b 1-6",
    "    struct W 4-4 // The widget.",
    "        field n 4-4",
  ]);
});

Deno.test("cpp.extract() reads a Doxygen @brief as the doc", async () => {
  const text = [
    "/**",
    " *  @brief  A fixed-size buffer.",
    " *  @tparam N  The size.",
    " */",
    "template <int N> class Buffer {",
    "  /// \\brief Clears it.",
    "  void clear();",
    "};",
    "",
  ].join("\n");
  deepStrictEqual(outlineLines(await extractText(cpp, text)), [
    "class Buffer 5-8 // A fixed-size buffer.",
    "    method clear 7-7 // Clears it.",
  ]);
});

Deno.test("cpp.extract() lists a prototype only when no definition follows, qualified or not", async () => {
  const text = [
    "namespace geo::io {",
    "void write(int fd);",
    "int read(int fd);",
    "}",
    "void geo::io::write(int fd) {}",
    "",
  ].join("\n");
  deepStrictEqual(outlineLines(await extractText(cpp, text)), [
    "namespace geo::io 1-4",
    "    function read 3-3",
    "function geo::io::write 5-5",
  ]);
});

Deno.test("cpp.extract() names functions around macros the parser cannot know", async () => {
  const text = [
    "static __inline__ __host__ cudaError_t launch(int n) { return 0; }",
    "class V {",
    "  iterator begin() _GLIBCXX_NOEXCEPT { return 0; }",
    "};",
    "",
  ].join("\n");
  deepStrictEqual(outlineLines(await extractText(cpp, text)), [
    "function launch 1-1",
    "class V 2-4",
    "    method begin 3-3",
  ]);
});

Deno.test("cpp.extract() lists a friend function defined in its class", async () => {
  const text = [
    "struct Point {",
    "  int x;",
    "  /// Equal coordinates.",
    "  friend bool operator==(const Point& a, const Point& b) {",
    "    return a.x == b.x;",
    "  }",
    "  friend class Grid;",
    "};",
    "",
  ].join("\n");
  deepStrictEqual(outlineLines(await extractText(cpp, text)), [
    "struct Point 1-8",
    "    field x 2-2",
    "    friend operator== 4-6 // Equal coordinates.",
  ]);
});
