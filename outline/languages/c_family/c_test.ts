// The C outline: c.extract() on fixtures and snippets, and C files through
// outlineSymbols(): export and calling-convention macros, preprocessor
// blocks, wrapped prototypes, struct members and doc comments.
import assert from "node:assert/strict";
import {
  lines,
  outlineFile,
  testExtract,
  testFixture,
  testOutlineFiles,
} from "../../../tests/support/outline_languages.ts";
import { elapsedMs } from "../../../tests/support/elapsed.ts";
import { blankCDeclarationMacros, c } from "./c.ts";

// The end of a function whose "if" lacks its "}", so that its body runs on
// over the documented struct that follows.
const RUN_ON = [
  "  if (a) {",
  "    a++;",
  "  return a;",
  "}",
  "",
  "/* A thing. */",
];

testFixture(c, {
  name:
    "c.extract() lists structs, typedefs, unions, enums, functions and prototypes of functions not defined here, also inside #if blocks",
  file: "sample.c",
  outline: [
    "struct kv_entry 10-16 // One entry of the store.",
    "    field key 11-11",
    "    field value 12-12",
    "    field next 13-13",
    "    field compare 14-14",
    "    field flags 15-15",
    "typedef kv_store 19-22 // The store itself.",
    "    field buckets 20-20",
    "    field count 21-21",
    "typedef kv_visit_fn 24-24",
    "union kv_number 26-29",
    "    field i 27-27",
    "    field d 28-28",
    "enum kv_status 31-35",
    "    enumerator KV_OK 32-32",
    "    enumerator KV_MISSING 33-33",
    "    enumerator KV_NOMEM 34-34",
    "struct kv_stats 37-37",
    "    field hits 37-37",
    "function kv_count 39-39",
    "function kv_hash 45-49 // Hash a key (djb2).",
    "function kv_dump 53-55 // Print every entry.",
    "function kv_dump 57-57",
    "function kv_lock 63-63 // Take the lock.",
    "function kv_lock 65-65",
    "function kv_size 68-68",
    "function kv_lookup 71-73 // Look up a key; NULL when missing.",
    "function kv_visitor 75-77",
    "function kv_first 79-79",
  ],
});

// A scan per candidate to the text's end once took minutes on such text.
Deno.test("blankCDeclarationMacros() ends on 500 KB of unclosed wrapper-like calls", () => {
  const text = "int before(void);\n" + "a X((".repeat(100_000) + "\n";
  const ms = elapsedMs(() => blankCDeclarationMacros(text));
  assert.ok(ms < 30_000, `${Math.round(ms)} ms`);
});

Deno.test("outlineSymbols() outlines a C header of unclosed wrapper-like calls without hanging", async () => {
  const text = "int before(void);\n" + "a X((".repeat(20_000) + "\n";
  const result = await outlineFile("unclosed.h", text, {
    parseBudgetMs: 30_000,
  });
  assert.equal(result.symbols[0]?.name, "before");
});

testExtract(c, [
  {
    name: "c.extract() lists zlib's OF((...)) prototypes under their own names",
    text: lines(
      "ZEXTERN const char * ZEXPORT zlibVersion OF((void));",
      "/* The application can compare zlibVersion and ZLIB_VERSION. */",
      "",
      "ZEXTERN int ZEXPORT deflate OF((z_streamp strm, int flush));",
      "",
      "ZEXTERN int ZEXPORT inflateBackInit_ OF((z_streamp strm, int windowBits,",
      "                                         const char *version));",
    ),
    outline: [
      "function zlibVersion 1-1",
      "function deflate 4-4",
      "function inflateBackInit_ 6-7",
    ],
  },
  {
    name:
      "c.extract() keeps a packed struct typedef named after __attribute__((packed))",
    text: lines(
      "typedef struct {",
      "\t__u32 v32;",
      "} __attribute__((packed)) jint32_t;",
      "",
      "struct cld_msg {",
      "\tunion {",
      "\t\t__s64 cm_gen;",
      "\t} __attribute__((packed)) cm_u;",
      "};",
    ),
    outline: [
      "typedef jint32_t 1-3",
      "    field v32 2-2",
      "struct cld_msg 5-9",
      "    field cm_u 6-8",
      "        field cm_gen 7-7",
    ],
  },
  {
    name:
      "c.extract() lists a prototype of a function that returns a function pointer, not a pointer variable",
    text: [
      "/** Installs a handler. */",
      "void (*signal(int sig, void (*func)(int)))(int);",
      "int (*handler)(int);",
      "int (*table[4])(void);",
      "struct ops {",
      "  int (*fn)(void);",
      "  int (*(*get)(void))(int);",
      "};",
      "",
    ].join("\n"),
    outline: [
      "function signal 2-2 // Installs a handler.",
      "struct ops 5-8",
      "    field fn 6-6",
      "    field get 7-7",
    ],
  },
  {
    name:
      "c.extract() starts a function at a macro that cut its head short, with that line's doc",
    text: [
      "/* Set up. */",
      "static int __init my_init(void)",
      "{",
      "  return 0;",
      "}",
      "/** Rows. */",
      "SQLITE_API sqlite3_int64 rows(sqlite3*);",
      "SQLITE_PRIVATE void (*dlsym(sqlite3_vfs *, void *))(void);",
      "",
    ].join("\n"),
    outline: [
      "function my_init 2-5 // Set up.",
      "function rows 7-7 // Rows.",
      "function dlsym 8-8",
    ],
  },
  {
    name:
      "c.extract() names prototypes whose names are in parentheses (Lua) or a name-pasting macro's argument",
    text: [
      "LUA_API int   (lua_absindex) (lua_State *L, int idx);",
      "LUA_API lua_State *(lua_newstate) (lua_Alloc f, void *ud);",
      "LUA_API lua_Number (lua_tonumberx) (lua_State *L, int idx, int *p);",
      "SizeT VG_(strlen) ( const HChar* str );",
      "int (*hook) (lua_State *L);",
      "",
    ].join("\n"),
    outline: [
      "function lua_absindex 1-1",
      "function lua_newstate 2-2",
      "function lua_tonumberx 3-3",
      "function strlen 4-4",
    ],
  },
  {
    name:
      "c.extract() lists an untagged type written in a field under the field, a tagged one beside it",
    text: [
      "struct ifreq {",
      "  union {",
      "    char name[16];",
      "    int index;",
      "  } ifr_ifrn;",
      "  struct constraint { int col; } *aConstraint;",
      "  int flags;",
      "};",
    ].join("\n"),
    outline: [
      "struct ifreq 1-8",
      "    field ifr_ifrn 2-5",
      "        field name 3-3",
      "        field index 4-4",
      "    struct constraint 6-6",
      "        field col 6-6",
      "    field aConstraint 6-6",
      "    field flags 7-7",
    ],
  },
  {
    name: "c.extract() lists tagged types declared in fields at any depth",
    text: [
      "struct outer {",
      "  struct middle {",
      "    /* The inner one. */",
      "    union inner { int a; long b; } *in;",
      "  } mid;",
      "};",
    ].join("\n"),
    outline: [
      "struct outer 1-6",
      "    struct middle 2-5",
      "        union inner 4-4",
      "            field a 4-4",
      "            field b 4-4",
      "        field in 4-4 // The inner one.",
      "    field mid 2-5",
    ],
  },
  {
    name:
      "c.extract() lists the structs a run-on body swallowed at column 0, not its local ones",
    text: [
      "int before(int a) {",
      "  struct local { int y; } l;",
      ...RUN_ON,
      "typedef struct Thing {",
      "  int x;",
      "} Thing;",
      "",
      "int after(void) { return 3; }",
    ].join("\n"),
    outline: [
      "function before 1-8",
      "typedef Thing 9-11 // A thing.",
      "    field x 10-10",
      "function after 13-13",
    ],
  },
  {
    name:
      "c.extract() keeps a function whole around an #ifndef'd else-if branch",
    text: lines(
      "/* Analyze. */",
      "static void exprAnalyze(int x){",
      "  if( x==1 ){",
      "    a();",
      "  }",
      "#ifndef SQLITE_OMIT_BETWEEN_OPTIMIZATION",
      "  /* A BETWEEN term. */",
      "  else if( x==2 ){",
      "    b();",
      "  }",
      "#endif",
      "  c();",
      "}",
      "",
      "int after(void){",
      "  return 0;",
      "}",
    ),
    outline: [
      "function exprAnalyze 2-13 // Analyze.",
      "function after 15-17",
    ],
  },
  {
    name: "c.extract() lists SQLITE_API functions returning a typedef'd type",
    text: lines(
      "SQLITE_API sqlite3_int64 sqlite3_last_insert_rowid(sqlite3*);",
      "SQLITE_API double sqlite3_value_double(sqlite3_value*);",
      "SQLITE_API sqlite3_mutex *sqlite3_mutex_alloc(int);",
      "SQLITE_API sqlite3_int64 sqlite3_memory_used(void){",
      "  return 0;",
      "}",
      "SQLITE_PRIVATE void (*sqlite3OsDlSym(sqlite3_vfs *pVfs))(void){",
      "  return 0;",
      "}",
    ),
    outline: [
      "function sqlite3_last_insert_rowid 1-1",
      "function sqlite3_value_double 2-2",
      "function sqlite3_mutex_alloc 3-3",
      "function sqlite3_memory_used 4-6",
      "function sqlite3OsDlSym 7-9",
    ],
  },
  {
    name: "c.extract() reads past field-list macros in a struct body",
    text: lines(
      "struct uv_shutdown_s {",
      "  UV_REQ_FIELDS",
      "  uv_stream_t* handle;",
      "  uv_shutdown_cb cb;",
      "  UV_SHUTDOWN_PRIVATE_FIELDS",
      "};",
      "",
      "UV_EXTERN void uv_walk(uv_loop_t* loop, uv_walk_cb walk_cb, void* arg);",
      "UV_EXTERN void uv_close(uv_handle_t* handle, uv_close_cb close_cb);",
    ),
    outline: [
      "struct uv_shutdown_s 1-6",
      "    field handle 3-3",
      "    field cb 4-4",
      "function uv_walk 8-8",
      "function uv_close 9-9",
    ],
  },
  {
    name:
      "c.extract() names a (void) function with an annotation before its name",
    text: lines(
      "static int __init my_init(void)",
      "{",
      "  return 0;",
      "}",
      "",
      "static void __exit my_exit(void)",
      "{",
      "}",
      "",
      "static inline u32 __must_check h(void)",
      "{",
      "  return 0;",
      "}",
    ),
    outline: [
      "function my_init 1-4",
      "function my_exit 6-8",
      "function h 10-13",
    ],
  },
  {
    name: "c.extract() names Lua's LUA_API int (lua_gettop) (...) functions",
    text: lines(
      "LUA_API int (lua_gettop) (lua_State *L) {",
      "  return 1;",
      "}",
      "LUA_API void (lua_settop) (lua_State *L, int idx) {",
      "}",
      "LUA_API lua_Number (lua_tonumberx) (lua_State *L, int idx, int *p) {",
      "  return 0;",
      "}",
    ),
    outline: [
      "function lua_gettop 1-3",
      "function lua_settop 4-5",
      "function lua_tonumberx 6-8",
    ],
  },
  // sqlite3.c's `#if 0` around a Tcl script makes the parser open a block
  // that swallows 40,000 lines of functions; this is the small version.
  {
    name:
      "c.extract() finds functions in a block the parser made of an #if 0 brace",
    text: [
      "int before(void) { return 0; }",
      "#if 0",
      "{",
      "#endif",
      "static int inside(void) { return 1; }",
      "#if 0",
      "}",
      "#endif",
      "int after(void) { return 3; }",
      "",
    ].join("\n"),
    outline: [
      "function before 1-1",
      "function inside 5-5",
      "function after 9-9",
    ],
  },
  // Each branch opens a `while` block: the parser cannot pair the braces and
  // leaves reader's head loose in an ERROR.
  {
    name:
      "c.extract() recovers a function whose braces differ between #if branches",
    text: [
      "/* Reads. */",
      "static int reader(int fd){",
      "#if USE_A",
      "  while( a(fd) ){",
      "#else",
      "  while( b(fd) ){",
      "#endif",
      "    step();",
      "  }",
      "  return 0;",
      "}",
      "",
      "/* Writes. */",
      "static int writer(int fd){",
      "  return 1;",
      "}",
      "",
    ].join("\n"),
    outline: [
      "function reader 2-11 // Reads.",
      "function writer 14-16 // Writes.",
    ],
  },
]);

testOutlineFiles([
  {
    name: "c.extract() keeps a struct a run-on function body swallowed",
    file: "run_on.c",
    text: lines(
      "int before(int a) {",
      ...RUN_ON,
      "struct Thing {",
      "  int x;",
      "};",
      "",
      "int after(void) { return 3; }",
    ),
    outline: [
      "function before 1-7",
      "struct Thing 8-10 // A thing.",
      "    field x 9-9",
      "function after 12-12",
    ],
  },
  {
    name: "c.extract() skips /*- and @{ marker lines in a doc summary",
    file: "ui.h",
    text: lines(
      "/*-",
      "   The following functions add strings.",
      " */",
      "int UI_add_input_string(UI *ui);",
      "",
      "/// \\name Accessors",
      "/// @{",
      "int is64Bit(void);",
    ),
    outline: [
      "function UI_add_input_string 4-4 // The following functions add strings.",
      "function is64Bit 8-8 // Accessors",
    ],
  },
  {
    name:
      "c.extract() lists the members of a struct or union inline in a field",
    file: "if.h",
    text: lines(
      "struct ifreq {",
      "  union {",
      "    char ifrn_name[16];",
      "  } ifr_ifrn;",
      "  struct constraint {",
      "    int iColumn;",
      "  } *aConstraint;",
      "};",
    ),
    outline: [
      "struct ifreq 1-8",
      "    field ifr_ifrn 2-4",
      "        field ifrn_name 3-3",
      "    struct constraint 5-7",
      "        field iColumn 6-6",
      "    field aConstraint 5-7",
    ],
  },
  {
    name: "c.extract() lists prototypes returning a pointer before XMLCALL",
    file: "reader.h",
    text: [
      "XMLPUBFUN int XMLCALL",
      "\t\txmlReaderDepth(xmlReaderPtr reader);",
      "XMLPUBFUN xmlChar * XMLCALL",
      "\t\txmlReaderInnerXml(xmlReaderPtr reader);",
      "XMLPUBFUN const xmlChar * XMLCALL",
      "\t\txmlReaderBaseUri(xmlReaderPtr reader);",
      "",
    ].join("\n"),
    outline: [
      "function xmlReaderDepth 1-2",
      "function xmlReaderInnerXml 3-4",
      "function xmlReaderBaseUri 5-6",
    ],
  },
  {
    name: "c.extract() names a PR_CALLBACK function-pointer typedef",
    file: "ssl.h",
    text: [
      "typedef SECStatus(PR_CALLBACK *SSLAuthCertificate)(void *arg, int fd);",
      "typedef PRInt32 (PR_CALLBACK *SSLSNISocketConfig)(int fd);",
      "typedef void (PR_CALLBACK *Plain)(int fd);",
      "",
    ].join("\n"),
    outline: [
      "typedef SSLAuthCertificate 1-1",
      "typedef SSLSNISocketConfig 2-2",
      "typedef Plain 3-3",
    ],
  },
  {
    name: "c.extract() keeps a typedef's name after _XFUNCPROTOBEGIN",
    file: "Xge.h",
    text: [
      "_XFUNCPROTOBEGIN",
      "",
      "typedef struct {",
      "    unsigned char extension;",
      "} XGenericEventMask;",
      "",
      "Bool XGEQueryExtension(Display* dpy, int *event_basep);",
      "",
      "_XFUNCPROTOEND",
      "",
    ].join("\n"),
    outline: [
      "typedef XGenericEventMask 3-5",
      "    field extension 4-4",
      "function XGEQueryExtension 7-7",
    ],
  },
  {
    name:
      "c.extract() lists a header's API: prototypes behind export macros, typedef'd structs with their fields at level two, enumerators",
    file: "api.h",
    text: [
      "/* Error names. */",
      "U_CAPI const char * U_EXPORT2",
      "u_errorName(UErrorCode code);",
      "ZEXTERN const char * ZEXPORT zError(int);",
      "typedef struct td_notify {",
      "  int type;",
      "} td_notify_t;",
      "enum color { RED, GREEN };",
      "",
    ].join("\n"),
    outline: [
      "function u_errorName 2-3 // Error names.",
      "function zError 4-4",
      "typedef td_notify_t 5-7",
      "    field type 6-6",
      "enum color 8-8",
      "    enumerator RED 8-8",
      "    enumerator GREEN 8-8",
    ],
  },
]);
