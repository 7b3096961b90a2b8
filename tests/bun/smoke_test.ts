// Bun runs the package from the checkout as Deno does: the tools from a
// script, outlines of the ten languages byte-identical to Deno's, the CLI's
// help, the MCP server's tools/list and one agent run against a scripted model.
import assert from "node:assert/strict";
import { join } from "node:path";
import { bunFello, endpointArgs, fello } from "../support/fello_cli.ts";
import { has } from "../support/has.ts";
import { callsTool, startScriptedServer } from "../support/scripted_server.ts";
import { withWorkspace } from "../support/workspace.ts";

const ignore = !has("bun");
if (ignore) console.log("bun is not on PATH: the Bun smoke tests are ignored");

const ROOT = new URL("../../", import.meta.url).pathname;
const FIXTURES = new URL("../fixtures/outline/", import.meta.url).pathname;
const TEN_LANGUAGES = [
  "ts",
  "tsx",
  "js",
  "py",
  "go",
  "c",
  "cpp",
  "swift",
  "kt",
  "dart",
].map((extension) => join(FIXTURES, `sample.${extension}`));

Deno.test({
  name: "bun run mod.ts --help prints Deno's help (needs bun)",
  ignore,
  async fn() {
    const [bun, deno] = await Promise.all([
      bunFello(["--help"], { cwd: ROOT }),
      fello(["--help"], { cwd: ROOT }),
    ]);
    assert.equal(bun.code, 0, bun.stderr);
    assert.match(bun.stdout, /^fello \d+\.\d+\.\d+: /);
    assert.equal(bun.stdout, deno.stdout);
  },
});

Deno.test({
  name:
    "bun run mod.ts outline prints Deno's outline of the ten languages (needs bun)",
  ignore,
  async fn() {
    const [bun, deno] = await Promise.all([
      bunFello(["outline", ...TEN_LANGUAGES], { cwd: ROOT }),
      fello(["outline", ...TEN_LANGUAGES], { cwd: ROOT }),
    ]);
    assert.equal(bun.code, 0, bun.stderr);
    assert.equal(deno.code, 0, deno.stderr);
    for (const path of TEN_LANGUAGES) assert.ok(bun.stdout.includes(path));
    assert.equal(bun.stdout, deno.stdout);
  },
});

Deno.test({
  name:
    "createTools() (EditSymbol and ReadFile symbol too) and the outline functions work in a Bun script (needs bun)",
  ignore,
  async fn() {
    await withWorkspace(async (dir) => {
      const out = await bunFello([dir], {
        cwd: dir,
        script: join(ROOT, "tests/bun/tools_script.ts"),
      });
      assert.equal(out.code, 0, out.stderr);
      const result = JSON.parse(out.stdout);
      assert.equal(
        result.read,
        "export function g() {}\n/** H. */\nexport function h() {}\n",
      );
      assert.equal(result.symbol, "/** H. */\nexport function h() {}\n");
      assert.equal(result.shell.exitCode, 0);
      assert.equal(result.shell.output, "42\n");
      assert.deepEqual(result.found.matches, [
        { path: "a.ts", line: 1, text: "export function g() {}" },
        { path: "a.ts", line: 3, text: "export function h() {}" },
      ]);
      assert.match(result.outline, /^function g \(line 1\)$/m);
      assert.equal(result.file, result.outline);
      assert.deepEqual(result.symbols, ["g", "h"]);
      assert.match(result.refused, /^Refused: .*"readOnly"/);
    });
  },
});

Deno.test({
  name: "bun run mod.ts mcp answers tools/list (needs bun)",
  ignore,
  async fn() {
    const lines = [
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "smoke", version: "1" },
        },
      },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
    ].map((message) => JSON.stringify(message)).join("\n") + "\n";
    const out = await bunFello(["mcp"], { cwd: ROOT, stdin: lines });
    const replies = out.stdout.trim().split("\n").map((line) =>
      JSON.parse(line)
    );
    const list = replies.find((reply) => reply.id === 2);
    assert.ok(list, out.stderr);
    const names = list.result.tools.map((tool: { name: string }) => tool.name);
    assert.ok(names.includes("file_outline"), names.join(", "));
  },
});

Deno.test({
  name: "bun run mod.ts runs the agent against a scripted model (needs bun)",
  ignore,
  async fn() {
    await using server = startScriptedServer([{
      match: "make a note",
      replies: [
        callsTool("WriteFile", { path: "note.txt", content: "from bun\n" }),
        { text: "Wrote note.txt." },
      ],
    }]);
    await withWorkspace(async (dir) => {
      const out = await bunFello([
        ...endpointArgs(server.baseURL),
        "--permission-mode",
        "allow",
        "make a note",
      ], { cwd: dir });
      assert.equal(out.code, 0, out.stderr);
      assert.match(out.stdout, /Wrote note\.txt\./);
      assert.equal(
        await Deno.readTextFile(join(dir, "note.txt")),
        "from bun\n",
      );
      assert.equal(server.requests.length, 2);
    });
  },
});
