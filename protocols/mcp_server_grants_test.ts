// `fello mcp`'s rg under narrow Deno grants, through the official MCP client:
// it reads what --allow-read grants (also through a symlink), nothing else.
import assert from "node:assert/strict";
import { join } from "node:path";
import { baseEnv } from "../tests/support/fello_cli.ts";
import { callText, connectMcp } from "../tests/support/mcp_client.ts";
import {
  withDirs,
  withSymlinkedWorkspace,
} from "../tests/support/workspace.ts";

function has(command: string): boolean {
  try {
    return new Deno.Command(command, {
      args: ["--version"],
      stdout: "null",
      stderr: "null",
    }).outputSync().success;
  } catch {
    return false;
  }
}

Deno.test("fello mcp: rg does not read a file that --allow-read does not grant", async () => {
  if (!has("rg")) return;
  await withDirs(async ({ ws, out }) => {
    const secret = join(out, "secret.txt");
    await Deno.writeTextFile(secret, "the secret is 4242\n");
    await Deno.writeTextFile(join(ws, "a.ts"), "export const a = 1;\n");
    const client = await connectMcp({
      workspace: ws,
      denoFlags: [`--allow-read=${ws}`, "--allow-env", "--allow-run=rg"],
      cwd: ws,
      env: baseEnv(),
      name: "mcp-grants-test",
    });
    try {
      const text = (name: string, args: Record<string, unknown>) =>
        callText(client, name, args);
      const search = await text("search", {
        pattern: "secret",
        path: secret,
      });
      assert.equal(search.isError, true, "control: search is refused");
      const rg = await text("rg", { args: ["secret", secret] });
      assert.doesNotMatch(rg.text, /4242/);
      assert.equal(rg.isError, true);
      assert.match(rg.text, /--allow-read/);
      // Symlinks may lead anywhere: -L needs reading everywhere.
      const follow = await text("rg", { args: ["-L", "secret"] });
      assert.equal(follow.isError, true);
      assert.match(follow.text, /without -L/);
      const inside = await text("rg", { args: ["const", "a.ts"] });
      assert.match(inside.text, /export const a = 1/);
    } finally {
      await client.close();
    }
  });
});

Deno.test("fello mcp's rg reads a workspace given through a symlink under --allow-read=<that path>: relative paths, spaces, '..'", async () => {
  await withSymlinkedWorkspace(async ({ link, ws }) => {
    const repo = new URL("..", import.meta.url).pathname;
    const client = await connectMcp({
      workspace: ws,
      denoFlags: [
        `--allow-read=${link},${repo}`,
        "--allow-env",
        "--allow-run=rg",
      ],
    });
    try {
      const rg = async (...args: string[]) => {
        const r = await callText(client, "rg", { args });
        assert.ok(!r.isError, r.text);
        return r.text;
      };
      const all = await rg("needle");
      assert.match(all, /sub dir\/a b\.txt:1:needle one/);
      assert.match(all, /f\.ts:1:/);
      assert.match(await rg("needle", "sub dir"), /a b\.txt:1:needle one/);
      assert.match(
        await rg("needle", "./sub dir/../sub dir/a b.txt"),
        /1:needle one/,
      );
    } finally {
      await client.close();
    }
  });
});
