// standInForDynamic(), and the grammar gap it repairs.
import { deepStrictEqual } from "node:assert/strict";
import { testStillMisreads } from "../../../../tests/support/outline_languages.ts";
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

testStillMisreads({
  name: "the Kotlin grammar still misreads dynamic as a name",
  grammar: "kotlin",
  text: "val dynamic = 1\nfun f() {}\n",
  error: "an ERROR for the keyword",
});
