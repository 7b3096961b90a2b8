// The C++ outline: cpp.extract() on fixtures and snippets, and C++ files
// through outlineSymbols(): classes behind export and attribute macros,
// namespace macros, templates, qualified definitions and test macros.
import assert from "node:assert/strict";
import {
  extractLines,
  lines,
  testExtract,
  testFixture,
  testOutlineFiles,
  withTree,
} from "../../../tests/support/outline_languages.ts";
import { cpp } from "./cpp.ts";

testFixture(cpp, {
  name:
    "cpp.extract() lists namespaces, classes with members, templates and qualified definitions",
  file: "sample.cpp",
  outline: [
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
  ],
});

Deno.test("cpp.prepare() lets the grammar read constructors with initializers after a macro", async () => {
  // Read as a return type, the macro made the initializer list a bit-field
  // (an error), and on libstdc++'s stl_vector.h the class ended early.
  const text = lines(
    "struct Vec {",
    "  _GLIBCXX20_CONSTEXPR",
    "  Vec() _GLIBCXX_NOEXCEPT",
    "  : _M_start(), _M_finish()",
    "  { }",
    "  explicit _GLIBCXX20_CONSTEXPR",
    "  Vec(const Vec& __x) noexcept",
    "  : _Base(__x.size())",
    "  { }",
    "  void clear() { }",
    "};",
  );
  await withTree("cpp", cpp.prepare!(text), (tree) => {
    assert.equal(tree.rootNode.hasError, false);
  });
  await withTree("cpp", text, (tree) => {
    assert.equal(tree.rootNode.hasError, true);
  });
  assert.deepEqual(await extractLines(cpp, text), [
    "struct Vec 1-11",
    "    method Vec 2-5",
    "    method Vec 6-9",
    "    method clear 10-10",
  ]);
});

testExtract(cpp, [
  {
    name: "cpp.extract() keeps the member name of a long qualified definition",
    text: lines(
      "template<typename _Key, typename _Value, typename _Alloc,",
      "         typename _ExtractKey, typename _Equal, typename _Hash,",
      "         typename _RangeHash, typename _Unused, typename _RehashPolicy>",
      "  void",
      "  _Hashtable<_Key, _Value, _Alloc, _ExtractKey, _Equal,",
      "             _Hash, _RangeHash, _Unused, _RehashPolicy>::",
      "  _M_rehash(size_type __bkt_count, const __rehash_state& __state)",
      "  {",
      "  }",
    ),
    outline: ["function _Hashtable<…>::_M_rehash 1-9"],
  },
  {
    name: "cpp.extract() merges namespaces that only hold a namespace",
    text: [
      "namespace a {",
      "namespace b {",
      "// The widget.",
      "struct W { int n; };",
      "}",
      "}",
      "",
    ].join("\n"),
    outline: [
      "namespace a::b 1-6",
      "    struct W 4-4 // The widget.",
      "        field n 4-4",
    ],
  },
  {
    name: "cpp.extract() reads a Doxygen @brief as the doc",
    text: [
      "/**",
      " *  @brief  A fixed-size buffer.",
      " *  @tparam N  The size.",
      " */",
      "template <int N> class Buffer {",
      "  /// \\brief Clears it.",
      "  void clear();",
      "};",
      "",
    ].join("\n"),
    outline: [
      "class Buffer 5-8 // A fixed-size buffer.",
      "    method clear 7-7 // Clears it.",
    ],
  },
  {
    name:
      "cpp.extract() lists a prototype only when no definition follows, qualified or not",
    text: [
      "namespace geo::io {",
      "void write(int fd);",
      "int read(int fd);",
      "}",
      "void geo::io::write(int fd) {}",
      "",
    ].join("\n"),
    outline: [
      "namespace geo::io 1-4",
      "    function read 3-3",
      "function geo::io::write 5-5",
    ],
  },
  {
    name: "cpp.extract() names functions around macros the parser cannot know",
    text: [
      "static __inline__ __host__ cudaError_t launch(int n) { return 0; }",
      "class V {",
      "  iterator begin() _GLIBCXX_NOEXCEPT { return 0; }",
      "};",
      "",
    ].join("\n"),
    outline: [
      "function launch 1-1",
      "class V 2-4",
      "    method begin 3-3",
    ],
  },
  {
    name: "cpp.extract() lists a friend function defined in its class",
    text: [
      "struct Point {",
      "  int x;",
      "  /// Equal coordinates.",
      "  friend bool operator==(const Point& a, const Point& b) {",
      "    return a.x == b.x;",
      "  }",
      "  friend class Grid;",
      "};",
      "",
    ].join("\n"),
    outline: [
      "struct Point 1-8",
      "    field x 2-2",
      "    friend operator== 4-6 // Equal coordinates.",
    ],
  },
  {
    name:
      "cpp.extract() reads a class declared with an export macro as a class",
    text: lines(
      "namespace v8 {",
      "/** An isolated instance of the engine. */",
      "class V8_EXPORT Isolate {",
      " public:",
      "  static Isolate* New();",
      "  void Dispose();",
      "};",
      "}  // namespace v8",
    ),
    outline: [
      "namespace v8 1-8",
      "    class Isolate 3-7 // An isolated instance of the engine.",
      "        method New 5-5",
      "        method Dispose 6-6",
    ],
  },
  {
    name: "cpp.extract() lists no macro calls as methods of a class",
    text: lines(
      "class Widget : public QWidget",
      "{",
      "    Q_OBJECT",
      "    Q_PROPERTY(int value READ value WRITE setValue)",
      "public:",
      "    explicit Widget(QWidget *parent = nullptr);",
      "    int value() const;",
      "};",
      "",
      "class Plain {",
      "    DISALLOW_COPY_AND_ASSIGN(Plain);",
      "public:",
      "    void run();",
      "};",
    ),
    outline: [
      "class Widget 1-8",
      "    method Widget 6-6",
      "    method value 7-7",
      "class Plain 10-14",
      "    method run 13-13",
    ],
  },
  {
    name: "cpp.extract() names googletest cases by their suite and test",
    text: lines(
      "namespace {",
      "",
      "// Tests factorial of 0.",
      "TEST(FactorialTest, HandlesZeroInput) {",
      "  EXPECT_EQ(Factorial(0), 1);",
      "}",
      "",
      "TEST_F(QueueTest, IsEmptyInitially) {",
      "  EXPECT_EQ(q0_.size(), 0);",
      "}",
      "",
      "}  // namespace",
    ),
    outline: [
      "namespace (anonymous) 1-12",
      "    function TEST(FactorialTest, HandlesZeroInput) 4-6 // Tests factorial of 0.",
      "    function TEST_F(QueueTest, IsEmptyInitially) 8-10",
    ],
  },
  {
    name: "cpp.extract() keeps the name of a macro-spelled class marked final",
    text: lines(
      "class MY_WIDGET final {",
      " public:",
      "  int size() const;",
      "};",
      "struct FOO_STATE final : Base {",
      "  int a;",
      "};",
    ),
    outline: [
      "class MY_WIDGET 1-4",
      "    method size 3-3",
      "struct FOO_STATE 5-7",
      "    field a 6-6",
    ],
  },
  {
    name: "cpp.extract() lists no struct for a brace-initialised variable",
    text: lines(
      "struct FOO_T state{};",
      "int after() { return 1; }",
    ),
    outline: [
      "function after 2-2",
    ],
  },
  {
    name: "cpp.extract() keeps the doc above a macro on a line of its own",
    text: lines(
      "class Ptr {",
      " public:",
      "  /// Replace the stored pointer.",
      "  MY_CONSTEXPR",
      "  void",
      "  reset(int p) noexcept",
      "  {",
      "  }",
      "};",
      "/** Makes a widget. */",
      "MY_API_EXPORT",
      "int make_widget(int a);",
    ),
    outline: [
      "class Ptr 1-9",
      "    method reset 4-8 // Replace the stored pointer.",
      "function make_widget 11-12 // Makes a widget.",
    ],
  },
  {
    name: "cpp.extract() reads past a namespace-opening macro line",
    text: lines(
      "FMT_BEGIN_NAMESPACE",
      "",
      "/** A string view. */",
      "template <typename Char> class basic_string_view {",
      " public:",
      "  size_t size() const { return size_; }",
      "};",
      "",
      "FMT_END_NAMESPACE",
    ),
    outline: [
      "class basic_string_view 4-7 // A string view.",
      "    method size 6-6",
    ],
    also: [
      {
        text: lines(
          "NLOHMANN_JSON_NAMESPACE_BEGIN",
          "namespace detail",
          "{",
          "class parse_error {",
          "  int id;",
          "};",
          "}  // namespace detail",
          "NLOHMANN_JSON_NAMESPACE_END",
        ),
        outline: [
          "namespace detail 2-7",
          "    class parse_error 4-6",
          "        field id 5-5",
        ],
      },
    ],
  },
  {
    name: "cpp.extract() reads members behind attribute-like macros",
    text: lines(
      "class Local {",
      " public:",
      '  V8_DEPRECATED("Use Get") Local<Value> Old();',
      "  int x;",
      "};",
    ),
    outline: [
      "class Local 1-5",
      "    method Old 3-3",
      "    field x 4-4",
    ],
    also: [
      {
        text: lines(
          "class Local {",
          " public:",
          "  V8_INLINE static Local<T> New(Isolate* isolate) {",
          "    return Local<T>();",
          "  }",
          "  V8_WARN_UNUSED_RESULT MaybeLocal<String> ToString() const;",
          "};",
        ),
        outline: [
          "class Local 1-7",
          "    method New 3-5",
          "    method ToString 6-6",
        ],
      },
    ],
  },
]);

testOutlineFiles([
  {
    name: "cpp.extract() reads a class marked final by a macro (U_FINAL)",
    file: "iter.hpp",
    text: [
      "class U_COMMON_API Iter U_FINAL : public UObject {",
      " public:",
      "  int next();",
      "};",
      "",
    ].join("\n"),
    outline: [
      "class Iter 1-4",
      "    method next 3-3",
    ],
  },
  {
    name: "cpp.extract() reads a struct head with a macro call before its name",
    file: "time.hpp",
    text: [
      "class Time {",
      " public:",
      '  struct ABSL_DEPRECATED("Use CivilInfo.") Breakdown {',
      "    int year;",
      "  };",
      "  int get() const;",
      "};",
      'struct FOO_DEPRECATED("no") Other {',
      "  int y;",
      "};",
      "",
    ].join("\n"),
    outline: [
      "class Time 1-7",
      "    struct Breakdown 3-5",
      "        field year 4-4",
      "    method get 6-6",
      "struct Other 8-10",
      "    field y 9-9",
    ],
  },
  {
    name:
      "cpp.extract() keeps an enum whose body starts with an X-macro #define",
    file: "dwarf.hpp",
    text: [
      "enum LocationAtom {",
      "#define HANDLE_DW_OP(ID, NAME) DW_OP_##NAME = ID,",
      '#include "Dwarf.def"',
      "  DW_OP_lo_user = 0xe0,",
      "  DW_OP_hi_user = 0xff,",
      "};",
      "enum Other { A };",
      "",
    ].join("\n"),
    outline: [
      "enum LocationAtom 1-6",
      "    enumerator DW_OP_lo_user 4-4",
      "    enumerator DW_OP_hi_user 5-5",
      "enum Other 7-7",
      "    enumerator A 7-7",
    ],
  },
  {
    name:
      "cpp.extract() reads a field annotated with ABSL_GUARDED_BY as a field",
    file: "guarded.cc",
    text: [
      "class C {",
      " private:",
      "  Mutex mu_;",
      "  bool done_ ABSL_GUARDED_BY(mu_);",
      "  int num_to_block_ ABSL_GUARDED_BY(mu_);",
      "};",
      "",
    ].join("\n"),
    outline: [
      "class C 1-6",
      "    field mu_ 3-3",
      "    field done_ 4-4",
      "    field num_to_block_ 5-5",
    ],
  },
  {
    name:
      "cpp.extract() names a ref-qualified method followed by an attribute macro",
    file: "box.hpp",
    text: [
      "class Box {",
      " public:",
      "  const T& operator*() const& ABSL_ATTRIBUTE_LIFETIME_BOUND {",
      "    return value_;",
      "  }",
      "  int size() const ABSL_ATTRIBUTE_LIFETIME_BOUND { return 0; }",
      "};",
      "",
    ].join("\n"),
    outline: [
      "class Box 1-7",
      "    method operator* 3-5",
      "    method size 6-6",
    ],
  },
  {
    name: "cpp.extract() keeps classes, alignas structs and namespaces apart",
    file: "mix.hpp",
    text: [
      "namespace std {",
      "  struct allocator_arg_t { explicit allocator_arg_t() = default; };",
      "}",
      "struct alignas(8) Int64 {",
      "  long v;",
      "};",
      "class Plain final : public Base {",
      "  int y;",
      "};",
      "",
    ].join("\n"),
    outline: [
      "namespace std 1-3",
      "    struct allocator_arg_t 2-2",
      "        method allocator_arg_t 2-2",
      "struct Int64 4-6",
      "    field v 5-5",
      "class Plain 7-9",
      "    field y 8-8",
    ],
  },
]);
