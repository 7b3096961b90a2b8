// blankUnnamedLibrary(): what it blanks and what the Dart grammar then reads.
import assert from "node:assert/strict";
import { blankUnnamedLibrary } from "./unnamed_library_dart_repomix_0_1_17.ts";
import { findSyntaxErrors } from "../../../syntax_errors.ts";

Deno.test("blankUnnamedLibrary() blanks library; at a line's start, keeping every offset", () => {
  const text = "/// Doc.\n@TestOn('vm')\nlibrary ;\n\nimport 'a.dart';\n";
  const blanked = blankUnnamedLibrary(text);
  assert.equal(blanked.length, text.length);
  assert.equal(blanked.split("\n")[2], "         ");
  assert.equal(blanked.replace("         ", "library ;"), text);
});

Deno.test("blankUnnamedLibrary() leaves a named library and a library; in a line comment", () => {
  const text = "library my.lib;\n// library;\nvoid f() {} // library;\n";
  assert.equal(blankUnnamedLibrary(text), text);
});

Deno.test("a Dart file with an unnamed library directive and Dart 3 syntax has no syntax error", async () => {
  const found = await findSyntaxErrors("/tmp/unnamed_library.dart", {
    newText: [
      "/// Tools.",
      "@TestOn('vm')",
      "library;",
      "",
      "import 'dart:math';",
      "",
      "(int, String) pair() => (1, 'a');",
      "String describe(Object o) => switch (o) {",
      "      int n when n > 0 => 'positive',",
      "      [var a, var b] => '$a$b',",
      "      _ => 'other',",
      "    };",
      "sealed class Shape {}",
      "",
    ].join("\n"),
  });
  assert.equal(found?.after, 0, JSON.stringify(found?.added));
});
