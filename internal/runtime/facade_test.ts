// The runtime facade (internal/runtime/) is the only shipped code that names
// `Deno.`: everything else reaches the runtime through it, so it runs on Bun.
import assert from "node:assert/strict";
import { join, normalize } from "node:path";
import { packageSources } from "../../tests/support/package_sources.ts";

const ROOT = normalize(join(import.meta.dirname!, "..", ".."));

/**
 * `text` with its comments blanked out (strings and regular expressions are
 * kept, so a `//` or `/*` inside them starts nothing), line breaks kept.
 */
function withoutComments(text: string): string {
  let out = "";
  let i = 0;
  // Open template literals, each with the depth of `{` inside its `${`.
  const templates: number[] = [];
  let last = ""; // the last significant character, to tell `/` apart
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    if (c === "/" && next === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      continue;
    }
    if (c === "/" && next === "*") {
      const end = text.indexOf("*/", i + 2);
      const stop = end === -1 ? text.length : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, " ");
      i = stop;
      continue;
    }
    if (
      c === '"' || c === "'" ||
      (c === "/" && /^$|[(,=:[!&|?{};+\-*%<>~^]$/.test(last))
    ) {
      let j = i + 1;
      let inClass = false;
      while (j < text.length && text[j] !== "\n") {
        if (text[j] === "\\") j += 2;
        else if (c === "/" && text[j] === "[") (inClass = true, j++);
        else if (c === "/" && text[j] === "]") (inClass = false, j++);
        else if (text[j] === c && !inClass) break;
        else j++;
      }
      out += text.slice(i, j + 1);
      i = j + 1;
      last = c;
      continue;
    }
    if (c === "`" || (c === "}" && templates.at(-1) === 0)) {
      if (c === "}") templates.pop();
      let j = i + 1;
      while (j < text.length && text[j] !== "`") {
        if (text[j] === "\\") j++;
        else if (text[j] === "$" && text[j + 1] === "{") break;
        j++;
      }
      if (text[j] === "$") {
        templates.push(0);
        out += text.slice(i, j + 2);
        i = j + 2;
        last = "{";
      } else {
        out += text.slice(i, j + 1);
        i = j + 1;
        last = "`";
      }
      continue;
    }
    if (templates.length > 0 && c === "{") templates[templates.length - 1]++;
    if (templates.length > 0 && c === "}") templates[templates.length - 1]--;
    if (!/\s/.test(c)) last = c;
    out += c;
    i++;
  }
  return out;
}

Deno.test("withoutComments() blanks comments and keeps code, strings and templates", () => {
  const text = [
    'const a = "//not a comment"; // Deno.exit()',
    "/* Deno.cwd() */ const b = `${Deno.pid} /* kept */`;",
    "const c = /[/]Deno\\./.test(x); /** Deno.args */",
    'const d = "**/*_test.ts"; Deno.env;',
  ].join("\n");
  const code = withoutComments(text);
  assert.equal(code.split("\n").length, 4);
  assert.match(code, /"\/\/not a comment";\s*$/m);
  assert.doesNotMatch(code, /Deno\.(exit|cwd|args)/);
  assert.match(code, /\$\{Deno\.pid\} \/\* kept \*\//);
  assert.match(code, /\[\/\]Deno\\\./);
  assert.match(code, /"\*\*\/\*_test\.ts"; Deno\.env;/);
});

Deno.test("shipped modules reach Deno only through internal/runtime/", async () => {
  const found: string[] = [];
  let files = 0;
  for await (const path of packageSources(ROOT)) {
    // The facade itself is the one place that may name `Deno.`.
    if (path.startsWith("internal/runtime/")) continue;
    files++;
    const code = withoutComments(await Deno.readTextFile(join(ROOT, path)));
    code.split("\n").forEach((line, index) => {
      if (/(?<![\w$.])Deno\./.test(line)) {
        found.push(`${path}:${index + 1}: ${line.trim()}`);
      }
    });
  }
  assert.ok(files > 100, `only ${files} shipped files were found`);
  assert.deepEqual(found, [], "use internal/runtime/runtime.ts instead");
});
