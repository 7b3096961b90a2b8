// CTreeText: reading a C or C++ tree's text by offset, as the tree answers.
import assert from "node:assert/strict";
import { CTreeText } from "./_c_tree_text.ts";
import {
  descendants,
  lines,
  withTree,
} from "../../../tests/support/outline_languages.ts";

const WORDS = ["identifier", "field_identifier", "type_identifier"];

const SOURCE = lines(
  "  // Heading, indented: the root starts after it.\r",
  "/* A block",
  "   comment. */ typedef unsigned long size_type;",
  "struct point { int x, y; struct point *next; };",
  "// Goes on \\",
  "   on the next line.",
  "static int $dollar_name(int a) { return a; }",
  "int caf\u00e9(void);",
  "\tint tabbed; /* trailing */",
  "uint8_t bytes[4];",
  "int last; // at the end",
);

Deno.test("CTreeText readers answer what the tree answers", async () => {
  await withTree("c", SOURCE, (tree) => {
    const text = CTreeText.of(tree.rootNode);
    assert.ok(text !== undefined);
    const nodes = descendants(tree.rootNode);
    let words = 0;
    let comments = 0;
    for (const node of nodes) {
      const type = node.type;
      if (WORDS.includes(type) || type === "primitive_type") {
        assert.equal(text.word(node), node.text);
        words++;
      } else if (type === "comment") {
        assert.equal(text.comment(node), node.text);
        comments++;
      }
    }
    assert.ok(words >= 12 && comments === 5, `${words} ${comments}`);
    const comment = nodes.filter((node) => node.type === "comment");
    // The root's first line, the block's, the continued line comment's:
    // first on their lines (the root's start is not known to be).
    assert.deepEqual(
      comment.map((node) => text.opensLine(node)),
      [false, true, true, false, false],
    );
    const field = nodes.find((node) => node.type === "field_declaration")!;
    const declarator = field.childForFieldName("declarator")!;
    assert.equal(text.holds("{", field, declarator), false);
    const struct = nodes.find((node) => node.type === "struct_specifier")!;
    assert.equal(text.holds("{", struct, field), true);
  });
});

Deno.test("CTreeText.of() answers undefined for a tree with errors", async () => {
  await withTree("cpp", "int f( {\n", (tree) => {
    assert.equal(CTreeText.of(tree.rootNode), undefined);
  });
});
