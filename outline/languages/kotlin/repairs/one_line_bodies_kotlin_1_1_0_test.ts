// terminateOneLineBodies(), and the grammar gap it repairs.
import { deepStrictEqual } from "node:assert/strict";
import { testStillMisreads } from "../../../../tests/support/outline_languages.ts";
import { terminateOneLineBodies } from "./one_line_bodies_kotlin_1_1_0.ts";

Deno.test("terminateOneLineBodies() adds ';' only where code ends a one-line body", () => {
  deepStrictEqual(
    terminateOneLineBodies("class A { fun g() {} }\nclass B {\n}\n"),
    "class A { fun g() {} ;}\nclass B {\n}\n",
  );
  // Braces in strings, templates, chars and comments are left alone.
  deepStrictEqual(
    terminateOneLineBodies('val s = "a}b ${x.y} }" }'),
    'val s = "a}b ${x.y} }" ;}',
  );
  deepStrictEqual(
    terminateOneLineBodies('val s = """raw } ${ f { 1 } } x""" }'),
    'val s = """raw } ${ f { 1 ;} } x""" ;}',
  );
  deepStrictEqual(terminateOneLineBodies("c = '}' }"), "c = '}' ;}");
  deepStrictEqual(
    terminateOneLineBodies("/* } */ x }\n// }\n}"),
    "/* } */ x ;}\n// }\n}",
  );
  // After `{`, `,` or `->` a `;` is not needed.
  deepStrictEqual(terminateOneLineBodies("f { x -> }"), "f { x -> }");
});

testStillMisreads({
  name: "the Kotlin grammar still misreads one-line bodies",
  grammar: "kotlin",
  text: "object A { fun f() {} }\nobject B { fun g() {} }\nfun after() {}\n",
  error: "an ERROR from the second body on",
});
