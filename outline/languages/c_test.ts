import { deepStrictEqual } from "node:assert/strict";
import {
  extractText,
  fixtureLines,
  outlineLines,
} from "../../tests/support/outline_languages.ts";
import { c } from "./c.ts";

Deno.test("c.extract() lists structs, typedefs, unions, enums and functions, also inside #if blocks", async () => {
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
    "function kv_hash 44-48 // Hash a key (djb2).",
    "function kv_dump 52-54 // Print every entry.",
    "function kv_dump 56-56",
    "function kv_lock 61-61",
    "function kv_lock 63-63",
    "function kv_lookup 68-70 // Look up a key; NULL when missing.",
    "function kv_visitor 72-74",
    "function kv_first 76-76",
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
