// objc.extract() and blankObjc(): Objective-C headers read by the line
// scanner and the C grammar together.
import assert from "node:assert/strict";
import {
  extractText,
  fixtureLines,
  outlineLines,
} from "../../../tests/support/outline_languages.ts";
import { blankObjc } from "./_objc.ts";
import { objc } from "./objc.ts";

Deno.test("objc.extract() lists interfaces, categories, protocols, enum macros, methods, properties and the C declarations between them", async () => {
  assert.deepEqual(await fixtureLines(objc, "sample_objc.h"), [
    "enum KVOpenOptions 11-13 // Options for opening a store.",
    "    enumerator KVOpenReadOnly 12-12",
    "interface KVStore 19-35 // A persistent key-value store.",
    "    property name 25-25 // The store's name.",
    "    property onChange 26-26",
    "    method initWithName: 28-28",
    "    class method storeAtPath:options:error: 30-32 // Opens the store at a path.",
    "    method close 33-33",
    "interface KVStore (Observing) 38-40 // The store's observers; an @interface in a comment is not one.",
    "    method addObserver: 39-39",
    "interface KVStore () 42-44",
    "    property open 43-43",
    "protocol KVObserver 47-52 // Told when values change.",
    "    method store:didChangeKey: 49-49",
    "    method storeDidClose: 51-51",
    "function KVCount 55-55 // Counts the entries of a store.",
    "implementation KVEntry 59-65",
    "    method touch 60-64",
    "struct kv_pair 67-67",
    "    field key 67-67",
    "    field value 67-67",
  ]);
});

Deno.test("blankObjc() keeps every line and offset, blanking only Objective-C", () => {
  const text = [
    "#import <Foundation/Foundation.h>",
    "@class A;",
    "NS_ASSUME_NONNULL_BEGIN",
    "@interface A : NSObject // é",
    "- (void)run;\r",
    "@end",
    "int add(int a, int b);",
  ].join("\n");
  const blanked = blankObjc(text);
  assert.equal(blanked.length, text.length);
  assert.deepEqual(
    blanked.split("\n").map((line) => line.trim()),
    [
      "#import <Foundation/Foundation.h>",
      "",
      "",
      "",
      "",
      "",
      "int add(int a, int b);",
    ],
  );
  assert.equal(blanked.split("\n")[4], " ".repeat(12) + "\r");
});

Deno.test("objc.extract() runs an unterminated block to the end and skips method bodies", async () => {
  const text = [
    "@implementation A",
    "- (int)count {",
    "    if (x) { return 1; }",
    "    - (void)notAMethod;",
    "    return 0;",
    "}",
    "+ (void)load {}",
    "@property int size;",
  ].join("\n");
  assert.deepEqual(outlineLines(await extractText(objc, text)), [
    "implementation A 1-8",
    "    method count 2-6",
    "    class method load 7-7",
    "    property size 8-8",
  ]);
});

Deno.test("objc.extract() leaves a macro wrapping a whole declaration, and glibc's __nonnull ((1)), to the C grammar", async () => {
  const text = [
    "@class A;",
    "/** Old. */",
    "LLVM_ATTRIBUTE_C_DEPRECATED(",
    "    LLVMValueRef LLVMConstGEP(LLVMValueRef V, unsigned N),",
    '    "Use LLVMConstGEP2 instead");',
    "/** Converts. */",
    "extern double atof (const char *__nptr)",
    "     __THROW __attribute_pure__ __nonnull ((1)) __wur;",
    "/** Last. */",
    "SEL _Nullable NSLastSelector(void);",
  ].join("\n");
  const blanked = blankObjc(text).split("\n");
  assert.equal(blanked[2], "LLVM_ATTRIBUTE_C_DEPRECATED(");
  assert.equal(
    blanked[7],
    "     __THROW __attribute_pure__ __nonnull ((1)) __wur;",
  );
  assert.equal(blanked[9], "SEL           NSLastSelector(void);");
  const lines = outlineLines(await extractText(objc, text));
  assert.ok(lines.includes("function atof 7-8 // Converts."), lines.join("\n"));
  assert.ok(
    lines.includes("function NSLastSelector 10-10 // Last."),
    lines.join("\n"),
  );
});
