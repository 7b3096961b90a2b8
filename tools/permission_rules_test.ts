// PermissionRuleSet and the permission gate with rules: how Tool(pattern)
// rules match commands, paths and tool names, and that deny beats every mode.
import assert from "node:assert/strict";
import { join } from "node:path";
import { withWorkspace } from "../tests/support/workspace.ts";
import { createTools } from "./create_tools.ts";
import {
  permissionRuleProblem,
  PermissionRuleSet,
} from "./permission_rules.ts";
import type { PermissionRequest } from "./types.ts";

const WS = "/ws";

function shell(command: string): PermissionRequest {
  return {
    tool: "Shell",
    action: "execute",
    command,
    path: WS,
    outsideWorkspace: false,
    description: command,
  };
}

function file(tool: string, path: string): PermissionRequest {
  return {
    tool,
    action: "write",
    path,
    outsideWorkspace: false,
    description: path,
  };
}

Deno.test("PermissionRuleSet.decide() matches Shell commands by glob, part by part", () => {
  const rules = new PermissionRuleSet({
    allow: ["Shell(git status*)", "Shell(ls)"],
    deny: ["Shell(rm *)"],
  }, WS);
  const verdict = (command: string) => rules.decide(shell(command))?.verdict;
  assert.equal(verdict("git status"), "allow");
  assert.equal(verdict("git status --short"), "allow");
  assert.equal(verdict("git status && ls"), "allow");
  assert.equal(verdict("git statusx; rm -rf /"), "deny");
  assert.equal(verdict("ls | rm -r x"), "deny");
  // An allow rule vouches for no part it did not see.
  assert.equal(verdict("git status; curl x"), undefined);
  assert.equal(verdict("git status > ~/.bashrc"), undefined);
  assert.equal(verdict("git status $(curl x)"), undefined);
  assert.equal(verdict("git log"), undefined);
  assert.equal(rules.decide(shell("rm -r x"))?.rule, "Shell(rm *)");
});

Deno.test("PermissionRuleSet.decide() matches paths relative to the workspace, under ~ or absolute", () => {
  const home = Deno.env.get("HOME")!;
  const rules = new PermissionRuleSet({
    allow: ["EditFile(src/**)", "WriteFile(*.md)"],
    deny: ["ReadFile(~/.ssh/**)", "EditFile(/etc/*)"],
  }, WS);
  const verdict = (tool: string, path: string) =>
    rules.decide(file(tool, path))?.verdict;
  assert.equal(verdict("EditFile", "/ws/src/a/b.ts"), "allow");
  assert.equal(verdict("EditFile", "/ws/src"), "allow");
  assert.equal(verdict("EditFile", "/ws/lib/a.ts"), undefined);
  assert.equal(verdict("WriteFile", "/ws/README.md"), "allow");
  assert.equal(verdict("WriteFile", "/ws/docs/README.md"), undefined);
  assert.equal(verdict("ReadFile", join(home, ".ssh", "id_rsa")), "deny");
  assert.equal(verdict("ReadFile", join(home, ".sshx")), undefined);
  assert.equal(verdict("EditFile", "/etc/hosts"), "deny");
  // A relative pattern never reaches outside the workspace.
  assert.equal(verdict("EditFile", "/elsewhere/src/a.ts"), undefined);
});

Deno.test("PermissionRuleSet.decide() matches tool names alone, with * in them", () => {
  const rules = new PermissionRuleSet({
    allow: ["mcp__docs__*"],
    deny: ["mcp__github__delete_repo", "Shell"],
  }, WS);
  const call = (tool: string) =>
    rules.decide({
      tool,
      action: "execute",
      outsideWorkspace: false,
      description: tool,
    })?.verdict;
  assert.equal(call("mcp__docs__search"), "allow");
  assert.equal(call("mcp__github__delete_repo"), "deny");
  assert.equal(call("mcp__github__list"), undefined);
  assert.equal(rules.decide(shell("echo hi"))?.verdict, "deny");
});

Deno.test("permissionRuleProblem() names a rule that does not parse", () => {
  assert.equal(permissionRuleProblem("Shell(git *)"), undefined);
  assert.equal(permissionRuleProblem("Shell"), undefined);
  assert.match(permissionRuleProblem("Shell(git")!, /is not a rule/);
  assert.match(permissionRuleProblem("two words")!, /is not a rule/);
  assert.match(permissionRuleProblem(3)!, /a rule is a string/);
  assert.throws(
    () => new PermissionRuleSet({ deny: ["(x)"] }, WS),
    TypeError,
  );
});

Deno.test("createTools() with a deny rule refuses in allow mode, and an allow rule runs unasked in readOnly", async () => {
  await withWorkspace(async (cwd) => {
    const asked: string[] = [];
    const tools = createTools({
      cwd,
      permissionMode: "allow",
      permissions: { deny: ["Shell(rm *)", "ReadFile(secret.txt)"] },
      approve: (request) => (asked.push(request.tool), true),
    });
    await Deno.writeTextFile(join(cwd, "secret.txt"), "s");
    await assert.rejects(
      tools.Shell.execute({ command: "rm secret.txt" }),
      /deny rule "Shell\(rm \*\)"/,
    );
    await assert.rejects(
      tools.ReadFile.execute({ path: "secret.txt" }),
      /deny rule "ReadFile\(secret\.txt\)"/,
    );
    assert.equal(await Deno.readTextFile(join(cwd, "secret.txt")), "s");
    const readOnly = createTools({
      cwd,
      permissionMode: "readOnly",
      // Unsandboxed, readOnly refuses every other command.
      sandbox: "off",
      permissions: { allow: ["Shell(echo *)"] },
      approve: (request) => (asked.push(request.tool), true),
    });
    const result = await readOnly.Shell.execute({ command: "echo hi" });
    assert.equal(result.exitCode, 0);
    await assert.rejects(
      readOnly.Shell.execute({ command: "pwd" }),
      /readOnly/,
    );
    assert.deepEqual(asked, []);
  });
});
