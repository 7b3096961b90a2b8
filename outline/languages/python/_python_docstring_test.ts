// docstringSummary(): the summary line of a Python docstring.
import { equal } from "node:assert/strict";
import { docstringSummary } from "./_python_docstring.ts";

Deno.test("docstringSummary() takes the first line that is not blank or a rule, trimmed", () => {
  equal(docstringSummary("\n   \n  Opens it.  \n  More."), "Opens it.");
  equal(docstringSummary("=======\nTitle\n======="), "Title");
  equal(docstringSummary("\r\n  Windows line.\r\n"), "Windows line.");
  equal(docstringSummary(""), undefined);
  equal(docstringSummary("\n ---- \n"), undefined);
});

Deno.test("docstringSummary() keeps what a comment reader would strip: *, #, // and /**", () => {
  equal(docstringSummary("**DEPRECATED**"), "**DEPRECATED**");
  equal(docstringSummary("# of retries"), "# of retries");
  equal(docstringSummary("// not a comment"), "// not a comment");
  equal(docstringSummary("/** neither */"), "/** neither */");
  equal(
    docstringSummary("Copyright 2020 is a year."),
    "Copyright 2020 is a year.",
  );
});

Deno.test("docstringSummary() gives no summary from an Epydoc field, but shows a decorator's name", () => {
  equal(
    docstringSummary("@param count: how many\n@type count: int"),
    undefined,
  );
  equal(docstringSummary("\n  @return: the value"), undefined);
  equal(
    docstringSummary("@contextmanager decorator.\n\nUsage:"),
    "@contextmanager decorator.",
  );
  equal(docstringSummary("@parametrize helper."), "@parametrize helper.");
  equal(docstringSummary(":param x: Sphinx field"), ":param x: Sphinx field");
});

Deno.test("docstringSummary() cuts a long line to 200 characters", () => {
  const summary = docstringSummary("x".repeat(500))!;
  equal(summary.length, 200);
  equal(summary.endsWith("…"), true);
});

Deno.test("docstringSummary() shows control characters as escapes, tabs as they are", () => {
  equal(
    docstringSummary("Prints \x1b[31mred\x1b[0m."),
    "Prints \\x1b[31mred\\x1b[0m.",
  );
  equal(
    docstringSummary('Ends a line with "\r".'),
    'Ends a line with "\\x0d".',
  );
  equal(docstringSummary("a\tb\x85c\x7f"), "a\tb\\x85c\\x7f");
});
