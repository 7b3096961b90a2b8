// standInForDynamic(), and the grammar gap it repairs.
import { deepStrictEqual, ok } from "node:assert/strict";
import { withTree } from "../../../../tests/support/outline_languages.ts";
import { standInForDynamic } from "./dynamic_as_name_kotlin_1_1_0.ts";

Deno.test("standInForDynamic() keeps the length and touches only the word dynamic", () => {
  const text = "val dynamic: dynamic = dynamicity + _dynamic";
  const stand = "dynam\u0456c";
  const stood = standInForDynamic(text);
  deepStrictEqual(stood.length, text.length);
  deepStrictEqual(
    stood,
    `val ${stand}: ${stand} = dynamicity + _dynamic`,
  );
});

Deno.test("the Kotlin grammar still misreads dynamic as a name", async () => {
  // When this fails, the grammar reads it: the repair can go.
  await withTree("kotlin", "val dynamic = 1\nfun f() {}\n", (tree) => {
    ok(tree.rootNode.hasError, "an ERROR for the keyword");
  });
});
