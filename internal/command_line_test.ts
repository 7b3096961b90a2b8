import assert from "node:assert/strict";
import {
  alwaysKeyOf,
  displayCommand,
  displayEnv,
  shellQuote,
  shownCommand,
} from "./command_line.ts";

Deno.test("displayCommand() quotes arguments only when a shell would split them", () => {
  assert.equal(
    displayCommand("printf", ["%s", "a b;c", "it's", ""]),
    `printf %s 'a b;c' 'it'\\''s' ''`,
  );
  assert.equal(displayCommand("npm test && echo ok"), "npm test && echo ok");
  assert.equal(shellQuote("src/a.ts"), "src/a.ts");
});

/** The key, parsed back: what it covers. */
function covers(
  command: string,
  args?: string[],
  env?: Record<string, string>,
): unknown {
  return JSON.parse(alwaysKeyOf(command, args, env));
}

/** Asserts that alwaysKeyOf() keys `command` (with `args`) by exactly itself. */
function assertKeyedExactly(command: string, args?: string[]): void {
  assert.deepEqual(covers(command, args), {
    exact: command,
    args: args ?? null,
    env: null,
  });
}

Deno.test("alwaysKeyOf() is the executable and first argument of a simple command", () => {
  const gitStatus = { prefix: ["git", "status"], env: null };
  assert.deepEqual(covers("git", ["status", "--short"]), gitStatus);
  assert.deepEqual(covers("git status --short"), gitStatus);
  assert.deepEqual(covers("ls"), { prefix: ["ls"], env: null });
});

Deno.test("alwaysKeyOf() keys shell operators, assignments and launchers by the exact command", () => {
  assertKeyedExactly("git status && rm -rf x");
  assertKeyedExactly("FOO=1 git status");
  assertKeyedExactly("sh", ["-c", "rm -rf x"]);
  assertKeyedExactly("/usr/bin/env", ["rm"]);
  assertKeyedExactly("echo $(id)");
});

Deno.test("alwaysKeyOf() keys a command whose first argument is an option by the exact command", () => {
  assertKeyedExactly("git", ["-C", "/w", "status"]);
  assertKeyedExactly("rm -rf build");
});

Deno.test("alwaysKeyOf() keys never collide across spellings: 'exact:sh' with args is not 'sh x.sh'", () => {
  const keys = [
    alwaysKeyOf("exact:sh", ["x.sh"]),
    alwaysKeyOf("sh x.sh"),
    alwaysKeyOf("sh", ["x.sh"]),
    alwaysKeyOf("git", ["a b"]),
    alwaysKeyOf("git a", ["b"]),
    alwaysKeyOf("git a b"),
  ];
  assert.equal(new Set(keys).size, keys.length);
});

Deno.test("alwaysKeyOf() includes the variables set, in name order; none is no env", () => {
  assert.notEqual(
    alwaysKeyOf("ls ."),
    alwaysKeyOf("ls .", undefined, { A: "1" }),
  );
  assert.equal(alwaysKeyOf("ls ."), alwaysKeyOf("ls .", undefined, {}));
  assert.equal(
    alwaysKeyOf("ls", ["."], { B: "2", A: "1" }),
    alwaysKeyOf("ls .", undefined, { A: "1", B: "2" }),
  );
  assert.notEqual(
    alwaysKeyOf("ls .", undefined, { PATH: "/usr/bin" }),
    alwaysKeyOf("ls .", undefined, { PATH: "/tmp/evil" }),
  );
});

Deno.test("displayEnv() shows variables as a shell line would set them, by name", () => {
  assert.equal(
    displayEnv({ PATH: "/a b:/usr/bin", CI: "1" }),
    "CI=1 PATH='/a b:/usr/bin'",
  );
});

Deno.test("displayCommand() quotes a program name with '=', which would read as an assignment", () => {
  assert.equal(displayCommand("FOO=1", ["sh", "x"]), "'FOO=1' sh x");
});

Deno.test("shownCommand() cuts a long command line and says how long it was", () => {
  assert.equal(shownCommand("ls -la"), "ls -la");
  const long = "x".repeat(5_000);
  assert.equal(shownCommand(long), `${"x".repeat(200)}… (5000 characters)`);
});
