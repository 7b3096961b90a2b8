// c.extract(): the symbols of C files, through the real grammar.
import { deepStrictEqual } from "node:assert/strict";
import {
  extractText,
  fixtureLines,
  outlineLines,
} from "../../../tests/support/outline_languages.ts";
import { c } from "./c.ts";

Deno.test("c.extract() lists structs, typedefs, unions, enums, functions and prototypes of functions not defined here, also inside #if blocks", async () => {
  deepStrictEqual(await fixtureLines(c, "sample.c"), [
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
  ]);
});

Deno.test("c.extract() finds functions in a block the parser made of an #if 0 brace", async () => {
  // sqlite3.c's `#if 0` around a Tcl script makes the parser open a block
  // that swallows 40,000 lines of functions; this is the small version.
  const text = [
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
  ].join("\n");
  deepStrictEqual(outlineLines(await extractText(c, text)), [
    "function before 1-1",
    "function inside 5-5",
    "function after 9-9",
  ]);
});

Deno.test("c.extract() recovers a function whose braces differ between #if branches", async () => {
  // Each branch opens a `while` block: the parser cannot pair the braces and
  // leaves reader's head loose in an ERROR.
  const text = [
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
  ].join("\n");
  deepStrictEqual(outlineLines(await extractText(c, text)), [
    "function reader 2-11 // Reads.",
    "function writer 14-16 // Writes.",
  ]);
});

Deno.test("c.extract() lists a prototype of a function that returns a function pointer, not a pointer variable", async () => {
  const text = [
    "/** Installs a handler. */",
    "void (*signal(int sig, void (*func)(int)))(int);",
    "int (*handler)(int);",
    "int (*table[4])(void);",
    "struct ops {",
    "  int (*fn)(void);",
    "  int (*(*get)(void))(int);",
    "};",
    "",
  ].join("\n");
  deepStrictEqual(outlineLines(await extractText(c, text)), [
    "function signal 2-2 // Installs a handler.",
    "struct ops 5-8",
    "    field fn 6-6",
    "    field get 7-7",
  ]);
});

Deno.test("c.extract() starts a function at a macro that cut its head short, with that line's doc", async () => {
  const text = [
    "/* Set up. */",
    "static int __init my_init(void)",
    "{",
    "  return 0;",
    "}",
    "/** Rows. */",
    "SQLITE_API sqlite3_int64 rows(sqlite3*);",
    "SQLITE_PRIVATE void (*dlsym(sqlite3_vfs *, void *))(void);",
    "",
  ].join("\n");
  deepStrictEqual(outlineLines(await extractText(c, text)), [
    "function my_init 2-5 // Set up.",
    "function rows 7-7 // Rows.",
    "function dlsym 8-8",
  ]);
});

Deno.test("c.extract() names prototypes whose names are in parentheses (Lua) or a name-pasting macro's argument", async () => {
  const text = [
    "LUA_API int   (lua_absindex) (lua_State *L, int idx);",
    "LUA_API lua_State *(lua_newstate) (lua_Alloc f, void *ud);",
    "LUA_API lua_Number (lua_tonumberx) (lua_State *L, int idx, int *p);",
    "SizeT VG_(strlen) ( const HChar* str );",
    "int (*hook) (lua_State *L);",
    "",
  ].join("\n");
  deepStrictEqual(outlineLines(await extractText(c, text)), [
    "function lua_absindex 1-1",
    "function lua_newstate 2-2",
    "function lua_tonumberx 3-3",
    "function strlen 4-4",
  ]);
});

Deno.test("c.extract() lists a type written inline in a field under the field", async () => {
  const text = [
    "struct ifreq {",
    "  union {",
    "    char name[16];",
    "    int index;",
    "  } ifr_ifrn;",
    "  struct constraint { int col; } *aConstraint;",
    "  int flags;",
    "};",
  ].join("\n");
  deepStrictEqual(outlineLines(await extractText(c, text)), [
    "struct ifreq 1-8",
    "    field ifr_ifrn 2-5",
    "        field name 3-3",
    "        field index 4-4",
    "    field aConstraint 6-6",
    "        field col 6-6",
    "    field flags 7-7",
  ]);
});

Deno.test("c.extract() lists the structs a run-on body swallowed at column 0, not its local ones", async () => {
  const text = [
    "int before(int a) {",
    "  struct local { int y; } l;",
    "  if (a) {",
    "    a++;",
    "  return a;",
    "}",
    "",
    "/* A thing. */",
    "typedef struct Thing {",
    "  int x;",
    "} Thing;",
    "",
    "int after(void) { return 3; }",
  ].join("\n");
  deepStrictEqual(outlineLines(await extractText(c, text)), [
    "function before 1-8",
    "typedef Thing 9-11 // A thing.",
    "    field x 10-10",
    "function after 13-13",
  ]);
});
