// treeText(): reading a TS/JS tree's text by offset, as the tree answers.
import assert from "node:assert/strict";
import { treeText } from "./_es_text.ts";
import {
  descendants,
  lines,
  withTree,
} from "../../../tests/support/outline_languages.ts";

const SOURCE = lines(
  "// Heading.\r",
  "/** Doc of I. */",
  "export interface I<T> extends J {",
  "  readonly a: string; // trailing",
  "  b?: number,",
  '  "quoted": 1;',
  "  get c(): T",
  "  [Symbol.iterator](): Iterator<T>;",
  "  readonly\td<U>(x: U): void",
  "  /* block */ e: {",
  "    f: 1;",
  "  };",
  "}",
  "declare abstract class C {",
  "  static g = 1;",
  "  @dec h() {}", // A method's decorator is its sibling in TypeScript.
  "  private readonly i: number;",
  "  #j = 2;",
  "}",
  "const enum E { K = 1, L }",
  "type T<X> = X;",
  "namespace N.M { }",
  "async function f() {}",
  "let v: number, w = 2;",
);

Deno.test("treeText() readers answer what the tree answers", async () => {
  await withTree("typescript", SOURCE, (tree) => {
    const text = treeText(tree.rootNode);
    assert.ok(text !== undefined);
    let names = 0;
    for (const node of descendants(tree.rootNode)) {
      const type = node.type;
      const field = node.childForFieldName("name")?.text;
      const leading: string | undefined = [
          "property_signature",
          "method_signature",
          "method_definition",
          "public_field_definition",
          "variable_declarator",
        ].includes(type)
        ? text.leadingName(node)
        : undefined;
      const declared: string | undefined = text.declarationName(node, type);
      for (const name of [leading, declared]) {
        if (name === undefined) continue;
        assert.equal(name, field, `${type} at line ${node.startPosition.row}`);
        names++;
      }
      if (type === "comment") assert.equal(text.commentText(node), node.text);
      const siblings = node.namedChildren;
      if (type === "program" || type.endsWith("body")) {
        assert.deepEqual(
          text.types(siblings),
          siblings.map((sibling) => sibling.type),
        );
      }
      for (let i = 0; i + 1 < siblings.length; i++) {
        if (!/signature|definition/.test(siblings[i].type)) continue;
        const end = siblings[i].endPosition;
        assert.equal(
          text.endLineBefore(siblings[i], siblings[i + 1]),
          end.row + 1,
        );
      }
    }
    // a b c d e f, g h i, v w; I C E T f (not N.M, a qualified name).
    assert.equal(names, 16);
  });
});

Deno.test("treeText() reads no name that follows a sign or another line", async () => {
  await withTree("typescript", SOURCE, (tree) => {
    const text = treeText(tree.rootNode)!;
    const members = descendants(tree.rootNode).filter((node) =>
      /signature|definition/.test(node.type)
    );
    const unread = members.filter((node) =>
      text.leadingName(node) === undefined
    )
      .map((node) => node.text.split("\n")[0]);
    assert.deepEqual(unread, [
      '"quoted": 1',
      "[Symbol.iterator](): Iterator<T>",
      "#j = 2",
    ]);
  });
});

Deno.test("treeText() tells a comment that opens its line from a trailing one", async () => {
  await withTree("typescript", SOURCE, (tree) => {
    const text = treeText(tree.rootNode)!;
    const comments = descendants(tree.rootNode).filter((node) =>
      node.type === "comment"
    );
    assert.deepEqual(
      comments.map((node) => [node.text, text.opensLine(node)]),
      [
        ["// Heading.", false],
        ["/** Doc of I. */", true],
        ["// trailing", false],
        ["/* block */", true],
      ],
    );
  });
});

Deno.test("treeText() is undefined for a tree with syntax errors", async () => {
  await withTree("javascript", "class A { x( }\n", (tree) => {
    assert.equal(treeText(tree.rootNode), undefined);
  });
  await withTree("javascript", "class A { x() {} }\n", (tree) => {
    assert.ok(treeText(tree.rootNode) !== undefined);
  });
});
