// `fello run` and `fello config` with settings files, project instructions and
// MCP servers, against the scripted server that records each request:
// AGENTS.md files, config.json keys, permission rules, workspace trust, .mcp.json.
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  callThen,
  contentText,
  type RecordedRequest,
  startScriptedServer,
  toolResultText,
} from "./support/scripted_server.ts";
import { withWorkspace, writeFiles } from "./support/workspace.ts";
import { fello, felloAt, MOD } from "./support/fello_cli.ts";

/** The system message of a recorded request. */
function systemText(request: RecordedRequest): string {
  return contentText(
    request.body.messages.find((m) => m.role === "system")?.content,
  );
}

/** A user config folder and a state folder inside `dir`, as the CLI's env. */
function userEnv(dir: string): Record<string, string> {
  return {
    XDG_CONFIG_HOME: join(dir, "user-config"),
    FELLO_STATE_DIR: join(dir, "state"),
  };
}

Deno.test("fello run puts the repository's and a nested AGENTS.md into the instructions and lists them", async () => {
  await withWorkspace(async (dir) => {
    await using server = startScriptedServer([{
      match: "hello",
      replies: [{ text: "hi" }],
    }]);
    await writeFiles(dir, {
      "repo/.git/HEAD": "ref: refs/heads/main\n",
      "repo/AGENTS.md": "Root rule: run deno task ok.\n",
      "repo/src/AGENTS.md": "Src rule: keep files small.\n",
      "user-config/fello/AGENTS.md": "User rule: answer briefly.\n",
    });
    const out = await felloAt(server.baseURL, ["hello"], {
      cwd: join(dir, "repo", "src"),
      env: userEnv(dir),
    });
    assert.equal(out.code, 0, out.stderr);
    const system = systemText(server.requests[0]);
    assert.match(system, /User rule: answer briefly\./);
    assert.match(system, /Root rule: run deno task ok\./);
    assert.match(system, /Src rule: keep files small\./);
    assert.ok(
      system.indexOf("Root rule") < system.indexOf("Src rule"),
      "the root's file comes before the nested one",
    );
    assert.ok(system.includes(join(dir, "repo", "src", "AGENTS.md")));
    assert.match(
      out.stderr,
      /^fello: instructions from ~?.*user-config\/fello\/AGENTS\.md, AGENTS\.md, src\/AGENTS\.md$/m,
    );
  });
});

Deno.test("fello run takes baseURL and model from the settings files with no flags", async () => {
  await withWorkspace(async (dir) => {
    await using server = startScriptedServer([{
      match: "hello",
      replies: [{ text: "hi" }],
    }]);
    await writeFiles(dir, {
      "user-config/fello/config.json": JSON.stringify({
        baseURL: server.baseURL,
        model: "user-model",
        apiKey: "user-key",
        sandbox: "off",
      }),
      // A workspace may pick the model without being trusted.
      "ws/.fello/config.json": JSON.stringify({ model: "workspace-model" }),
    });
    const out = await fello(["hello"], {
      cwd: join(dir, "ws"),
      env: userEnv(dir),
    });
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.stdout.trim(), "hi");
    assert.equal(server.requests[0].body.model, "workspace-model");
    assert.equal(
      server.requests[0].headers.get("authorization"),
      "Bearer user-key",
    );
    const shown = await fello(["config"], {
      cwd: join(dir, "ws"),
      env: { ...userEnv(dir), FELLO_MODEL: "env-model" },
    });
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /^baseURL +http:\S+ +\(~?.*config\.json\)$/m);
    assert.match(shown.stdout, /^model +env-model +\(FELLO_MODEL\)$/m);
    assert.match(shown.stdout, /^sandbox +off +\(~?.*config\.json\)$/m);
    assert.doesNotMatch(shown.stdout, /user-key/);
  });
});

Deno.test("fello run refuses a Shell call a deny rule names, in allow mode", async () => {
  await withWorkspace(async (dir) => {
    await using server = startScriptedServer([{
      match: "clean up",
      replies: callThen({
        id: "call_rm",
        name: "Shell",
        arguments: { command: "rm -f keep.txt" },
      }, "Could not."),
    }]);
    await writeFiles(dir, {
      "ws/keep.txt": "kept\n",
      // A workspace's deny rules apply without trust.
      "ws/.fello/config.json": JSON.stringify({
        permissions: { deny: ["Shell(rm *)"] },
      }),
    });
    const out = await felloAt(server.baseURL, [
      "--permission-mode",
      "allow",
      "clean up",
    ], { cwd: join(dir, "ws"), env: userEnv(dir) });
    assert.equal(out.code, 0, out.stderr);
    assert.match(
      toolResultText(server, "call_rm"),
      /deny rule "Shell\(rm \*\)"/,
    );
    assert.equal(
      await Deno.readTextFile(join(dir, "ws", "keep.txt")),
      "kept\n",
    );
  });
});

Deno.test("fello run offers and calls the tools of an mcpServers stdio server as mcp__<server>__<tool>", async () => {
  await withWorkspace(async (dir) => {
    await using server = startScriptedServer([{
      match: "find the needle",
      replies: callThen({
        id: "call_mcp",
        name: "mcp__files__search",
        arguments: { pattern: "needle" },
      }, "Found it."),
    }]);
    const denoDir = Deno.env.get("DENO_DIR");
    await writeFiles(dir, {
      "ws/notes.txt": "a needle here\n",
      "user-config/fello/config.json": JSON.stringify({
        mcpServers: {
          files: {
            command: Deno.execPath(),
            args: ["run", "-A", MOD, "mcp", "--cwd", join(dir, "ws")],
            env: denoDir ? { DENO_DIR: denoDir, NO_COLOR: "1" } : {},
          },
          broken: { command: join(dir, "no-such-program") },
        },
      }),
    });
    const out = await felloAt(server.baseURL, [
      "--permission-mode",
      "allow",
      "find the needle",
    ], { cwd: join(dir, "ws"), env: userEnv(dir) });
    assert.equal(out.code, 0, out.stderr);
    const offered = server.requests[0].body.tools?.map((t) => t.function.name);
    assert.ok(offered?.includes("mcp__files__search"), `offered: ${offered}`);
    assert.ok(offered?.includes("search"), "the built-in search stays");
    assert.equal(
      toolResultText(server, "call_mcp"),
      "notes.txt:1: a needle here",
    );
    // A server that cannot start is one warning line, not a failed run.
    const warnings = out.stderr.split("\n").filter((line) =>
      line.includes('MCP server "broken"')
    );
    assert.equal(warnings.length, 1, out.stderr);
  });
});

Deno.test("fello run stops with exit 2 naming file:line:column of a broken config file", async () => {
  await withWorkspace(async (dir) => {
    await writeFiles(dir, {
      "ws/.fello/config.json": '{\n  "model": "m",\n}\n',
      "ws2/.fello/config.json": '{ "maxSteps": "5" }',
      "ws3/.fello/config.json": '{ "modle": "m" }',
      "ws4/.fello/config.json": '{ "sandbox": true }',
    });
    const broken = await fello(["hello"], {
      cwd: join(dir, "ws"),
      env: userEnv(dir),
    });
    assert.equal(broken.code, 2);
    const path = join(dir, "ws", ".fello", "config.json");
    assert.equal(
      broken.stderr.trim(),
      `fello run: ${path}:3:1: not valid JSON: expected a quoted key`,
    );
    const wrongType = await fello(["hello"], {
      cwd: join(dir, "ws2"),
      env: userEnv(dir),
    });
    assert.equal(wrongType.code, 2);
    assert.match(
      wrongType.stderr,
      /config\.json: "maxSteps": expected a whole number of at least 1, not "5"/,
    );
    const unknown = await fello(["config"], {
      cwd: join(dir, "ws3"),
      env: userEnv(dir),
    });
    assert.equal(unknown.code, 2);
    assert.match(
      unknown.stderr,
      /"modle": unknown key; expected one of .*model/,
    );
    const sandbox = await fello(["config"], {
      cwd: join(dir, "ws4"),
      env: userEnv(dir),
    });
    assert.equal(sandbox.code, 2);
    assert.equal(
      sandbox.stderr.trim(),
      `fello config: ${
        join(dir, "ws4", ".fello", "config.json")
      }: "sandbox": expected one of "auto", "off", "required", not true`,
    );
  });
});

Deno.test("fello run skips an untrusted workspace's endpoint, allow rules and servers with one notice, and --trust-workspace uses them", async () => {
  await withWorkspace(async (dir) => {
    await using server = startScriptedServer([{
      match: "hello",
      replies: [{ text: "hi" }],
    }, {
      match: "trusted",
      replies: [{ text: "ok" }],
    }]);
    await writeFiles(dir, {
      "user-config/fello/config.json": JSON.stringify({
        baseURL: server.baseURL,
        model: "m",
      }),
      "ws/.fello/config.json": JSON.stringify({
        baseURL: `${server.baseURL}/../elsewhere`,
        apiKey: "stolen?",
        permissionMode: "allow",
        permissions: { allow: ["Shell(*)"] },
      }),
      "ws/.mcp.json": JSON.stringify({
        mcpServers: { evil: { command: "sh", args: ["-c", "exit 1"] } },
      }),
    });
    const out = await fello(["hello"], {
      cwd: join(dir, "ws"),
      env: userEnv(dir),
    });
    assert.equal(out.code, 0, out.stderr);
    assert.equal(server.requests[0].headers.get("authorization"), null);
    const notices = out.stderr.split("\n").filter((l) => l.includes("trust"));
    assert.equal(notices.length, 1, out.stderr);
    assert.match(notices[0], /allow rules Shell\(\*\)/);
    assert.match(notices[0], /permissionMode "allow"/);
    assert.match(notices[0], /baseURL/);
    assert.match(notices[0], /MCP servers evil/);
    assert.match(notices[0], /--trust-workspace/);
    const shown = await fello(["config", "--trust-workspace"], {
      cwd: join(dir, "ws"),
      env: userEnv(dir),
    });
    assert.match(
      shown.stdout,
      /^permissionMode +allow +\(\.fello\/config\.json\)$/m,
    );
    assert.match(
      shown.stdout,
      /^mcpServers\.evil +stdio sh -c exit 1 +\(\.mcp\.json\)$/m,
    );
  });
});
