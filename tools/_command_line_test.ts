import assert from "node:assert/strict";
import {
  alwaysKeyOf,
  displayCommand,
  shellQuote,
  shownCommand,
} from "./_command_line.ts";

Deno.test("displayCommand() quotes arguments only when a shell would split them", () => {
  assert.equal(
    displayCommand("printf", ["%s", "a b;c", "it's", ""]),
    `printf %s 'a b;c' 'it'\\''s' ''`,
  );
  assert.equal(displayCommand("npm test && echo ok"), "npm test && echo ok");
  assert.equal(shellQuote("src/a.ts"), "src/a.ts");
});

Deno.test("alwaysKeyOf() is the executable and first argument of a simple command", () => {
  assert.equal(alwaysKeyOf("git", ["status", "--short"]), "git status");
  assert.equal(alwaysKeyOf("git status --short"), "git status");
  assert.equal(alwaysKeyOf("ls"), "ls");
});

Deno.test("alwaysKeyOf() keys shell operators, assignments and launchers by the whole line", () => {
  assert.equal(
    alwaysKeyOf("git status && rm -rf x"),
    "exact:git status && rm -rf x",
  );
  assert.equal(alwaysKeyOf("FOO=1 git status"), "exact:FOO=1 git status");
  assert.equal(alwaysKeyOf("sh", ["-c", "rm -rf x"]), "exact:sh -c 'rm -rf x'");
  assert.equal(alwaysKeyOf("/usr/bin/env", ["rm"]), "exact:/usr/bin/env rm");
  assert.equal(alwaysKeyOf("echo $(id)"), "exact:echo $(id)");
});

Deno.test("alwaysKeyOf() keys a command whose first argument is an option by the whole line", () => {
  assert.equal(
    alwaysKeyOf("git", ["-C", "/w", "status"]),
    "exact:git -C /w status",
  );
  assert.equal(alwaysKeyOf("rm -rf build"), "exact:rm -rf build");
});

Deno.test("shownCommand() cuts a long command line and says how long it was", () => {
  assert.equal(shownCommand("ls -la"), "ls -la");
  const long = "x".repeat(5_000);
  assert.equal(shownCommand(long), `${"x".repeat(200)}… (5000 characters)`);
});
