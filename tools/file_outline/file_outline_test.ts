import assert from "node:assert/strict";
import { join } from "node:path";
import { createTools, ToolError } from "../../mod.ts";
import { bigTypeScript } from "../../tests/support/big_source.ts";
import { withWorkspace } from "../../tests/support/workspace.ts";
import { recorder } from "../../tests/support/tool_asserts.ts";
import { childPeak, MB, MOD } from "../../tests/support/child_peak.ts";

const FIXTURES =
  new URL("../../tests/fixtures/outline/", import.meta.url).pathname;

Deno.test("file_outline outlines a workspace file, showing the path as given", async () => {
  const tools = createTools({ cwd: FIXTURES, permissionMode: "readOnly" });
  const text = await tools.file_outline.execute({ path: "sample.tsx" });
  assert.equal(
    text,
    [
      "File: sample.tsx",
      "Language: TSX",
      "Total lines: 17",
      "─── Symbols ───",
      "import react (line 1)",
      "interface ButtonProps (lines 4-6)  // Props of the button.",
      "    property label (line 5)",
      "function Button (lines 9-11)  // A button.",
      "const App (lines 13-17)",
    ].join("\n"),
  );
  assert.equal(tools.file_outline.toModelText(text), text);
  assert.equal(tools.file_outline.kind, "read");
});

Deno.test("file_outline asks before reading outside the workspace", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const { calls: asked, approve } = recorder(false);
    const tools = createTools({
      cwd: dir,
      approve,
    });
    await assert.rejects(
      tools.file_outline.execute({ path: `${FIXTURES}sample.py` }),
      { name: "ToolError" },
    );
    assert.equal(asked.length, 1);
    assert.equal(asked[0].tool, "file_outline");
    assert.equal(asked[0].action, "read");
    assert.equal(asked[0].outsideWorkspace, true);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("file_outline caps a large outline at 400 symbols", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const source = Array.from(
      { length: 450 },
      (_, i) => `def f${i}():\n    pass\n`,
    ).join("");
    await Deno.writeTextFile(`${dir}/many.py`, source);
    const tools = createTools({ cwd: dir });
    const lines = (await tools.file_outline.execute({ path: "many.py" })).split(
      "\n",
    );
    assert.equal(lines.length, 4 + 400 + 1);
    assert.equal(lines[403], "def f399 (lines 799-800)");
    assert.equal(
      lines[404],
      "... 50 more symbols left out (showing 400 of 450); read the file by line ranges for the rest",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("file_outline rejects invalid input with a ToolError", async () => {
  const tools = createTools({ cwd: FIXTURES });
  await assert.rejects(tools.file_outline.execute({ path: "" }), {
    name: "ToolError",
  });
  await assert.rejects(
    tools.file_outline.execute({} as { path: string }),
    { name: "ToolError", message: /Invalid input for file_outline/ },
  );
});

Deno.test('file_outline resolves "~/" to the home folder, as ReadFile does, showing it as given', async () => {
  const home = await Deno.makeTempDir();
  const saved = Deno.env.get("HOME");
  try {
    await Deno.writeTextFile(`${home}/m.ts`, "export function f() {}\n");
    Deno.env.set("HOME", home);
    const tools = createTools({ cwd: FIXTURES, permissionMode: "allow" });
    const text = await tools.file_outline.execute({ path: "~/m.ts" });
    assert.match(text, /^File: ~\/m\.ts\n/);
    assert.match(text, /function f \(line 1\)/);
  } finally {
    if (saved === undefined) Deno.env.delete("HOME");
    else Deno.env.set("HOME", saved);
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("file_outline started after a WriteFile of the same file outlines what it wrote", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/a.ts`, "export function before() {}\n");
    // The write waits for a slow approval; the outline, inside the
    // workspace, needs none, yet comes after it.
    const tools = createTools({
      cwd: dir,
      permissionMode: "ask",
      approve: () => new Promise((resolve) => setTimeout(resolve, 200, true)),
    });
    const [, outline] = await Promise.all([
      tools.WriteFile.execute({
        path: "a.ts",
        content: "export function after() {}\n",
      }),
      tools.file_outline.execute({ path: "a.ts" }),
    ]);
    assert.match(outline, /function after/);
    assert.doesNotMatch(outline, /before/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("file_outline.execute() rejects when its signal is aborted, before or during the parse", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(
      join(dir, "before.ts"),
      bigTypeScript(40_000, "b"),
    );
    await Deno.writeTextFile(
      join(dir, "during.ts"),
      bigTypeScript(40_000, "d"),
    );
    const tools = createTools({ cwd: dir, permissionMode: "allow" });
    await assert.rejects(
      tools.file_outline.execute({ path: "before.ts" }, {
        signal: AbortSignal.abort(),
      }),
      ToolError,
      "an already aborted call",
    );
    const controller = new AbortController();
    const during = tools.file_outline.execute({ path: "during.ts" }, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 100);
    await assert.rejects(during, ToolError, "a call aborted mid-parse");
  });
});

Deno.test("file_outline of a file with 250 000 headings stays near its size", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(join(dir, "many.md"), "# a\n".repeat(250_000));
    const { result, peak } = await childPeak(
      `import { createTools } from "${MOD}";
const tools = createTools({ cwd: Deno.args[0], permissionMode: "allow" });
const text = tools.file_outline.toModelText(await tools.file_outline.execute({ path: "many.md" }));
(globalThis as Record<string, unknown>).result = text.length;`,
      [dir],
    );
    assert.ok((result as number) > 0);
    assert.ok(
      peak < 200 * MB,
      `peak RSS ${Math.round(peak / MB)} MB to show 400 of 250 000 headings`,
    );
  });
});

Deno.test("file_outline refuses a file with a line over 4 MiB before parsing, naming the line", async () => {
  await withWorkspace(async (dir) => {
    const tools = createTools({ cwd: dir, permissionMode: "readOnly" });
    // A string literal parses in one token: the 4 MiB line is outlined.
    const line = `const s = "${"a".repeat(4 * MB - 13)}";`;
    assert.equal(line.length, 4 * MB);
    await Deno.writeTextFile(
      join(dir, "at_limit.ts"),
      `export function a() {}\n${line}\nexport function b() {}\n`,
    );
    const outline = await tools.file_outline.execute({ path: "at_limit.ts" });
    assert.match(outline, /function b \(line 3\)/);
    await Deno.writeTextFile(
      join(dir, "over.ts"),
      `export function a() {}\n\n${line} \nexport function b() {}\n`,
    );
    await assert.rejects(
      tools.file_outline.execute({ path: "over.ts" }),
      (error: unknown) => {
        assert.ok(error instanceof ToolError);
        assert.equal(
          error.message,
          'Cannot outline "over.ts": line 3 is 4,194,305 bytes long, and an outline parses lines of up to 4 MiB (a longer one is generated code or data, which runs the parser out of memory); search it instead',
        );
        return true;
      },
    );
  });
});
