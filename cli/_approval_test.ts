// approvalView(): what an approval question shows above itself, the diff of a
// file change or the details of a command, made from the call's input.
import assert from "node:assert/strict";
import { approvalView, MAX_PREVIEW_LINES } from "./_approval.ts";
import type { AgentPermissionRequest } from "../agent/types.ts";

const WORKSPACE = "/ws";

function request(
  tool: string,
  fields: Partial<AgentPermissionRequest> = {},
): AgentPermissionRequest {
  return {
    tool,
    action: tool === "Shell" ? "execute" : "write",
    path: `${WORKSPACE}/hello.txt`,
    outsideWorkspace: false,
    description: "a change",
    ...fields,
  };
}

/** The view with files read from `files` (a missing key: no such file). */
function view(
  req: AgentPermissionRequest,
  input: unknown,
  files: Record<string, string | null> = {},
  color = false,
): Promise<string> {
  return approvalView(req, input, {
    workspace: WORKSPACE,
    color,
    readFile: (path) => Promise.resolve(files[path]),
  });
}

Deno.test("approvalView() shows an EditFile call as a unified diff of the file", async () => {
  const text = "one\ntwo\nthree\nfour\nfive\nsix\nseven\n";
  const shown = await view(
    request("EditFile"),
    { path: "hello.txt", oldText: "four", newText: "FOUR" },
    { "/ws/hello.txt": text },
  );
  assert.equal(
    shown,
    "--- hello.txt\n+++ hello.txt\n@@ -1,7 +1,7 @@\n one\n two\n three\n-four\n+FOUR\n five\n six\n seven\n",
  );
});

Deno.test("approvalView() shows an EditSymbol call as the real diff of the symbol found in the file", async () => {
  const text =
    "package a\n\n// Serve runs.\nfunc (s *Server) Serve() {\n\treturn\n}\n";
  const input = {
    path: "a.go",
    symbol: "Server.Serve",
    newText: "func (s *Server) Serve() {}\n",
  };
  const shown = await view(
    request("EditSymbol", { path: "/ws/a.go" }),
    input,
    { "/ws/a.go": text },
  );
  assert.equal(
    shown,
    "--- a.go\n+++ a.go\n@@ -1,6 +1,3 @@\n package a\n \n-// Serve runs.\n-func (s *Server) Serve() {\n-\treturn\n-}\n+func (s *Server) Serve() {}\n",
  );
  // A symbol not in the file: its new text alone.
  const missing = await view(
    request("EditSymbol", { path: "/ws/a.go" }),
    { ...input, symbol: "Nope" },
    { "/ws/a.go": text },
  );
  assert.equal(
    missing,
    "  new text for Nope in a.go, 1 line:\n+func (s *Server) Serve() {}\n",
  );
});

Deno.test("approvalView() diffs a CRLF file's edit given with LF line endings", async () => {
  const shown = await view(
    request("EditFile"),
    { path: "hello.txt", oldText: "a\nb", newText: "a\nc" },
    { "/ws/hello.txt": "a\r\nb\r\n" },
  );
  assert.match(shown, /^ a\n-b\n\+c\n$/m);
  assert.doesNotMatch(shown, /\r/);
});

Deno.test("approvalView() colors the diff unless told not to", async () => {
  const input = { path: "hello.txt", oldText: "x", newText: "y" };
  const files = { "/ws/hello.txt": "x\n" };
  const colored = await view(request("EditFile"), input, files, true);
  assert.ok(colored.includes("\x1b[31m-x\x1b[0m"), colored);
  assert.ok(colored.includes("\x1b[32m+y\x1b[0m"), colored);
  assert.ok(colored.includes("\x1b[36m@@ -1,1 +1,1 @@\x1b[0m"), colored);
  assert.ok(!(await view(request("EditFile"), input, files)).includes("\x1b"));
});

Deno.test("approvalView() shows a new file's first lines, then how many more", async () => {
  const lines = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`);
  const shown = await view(request("WriteFile"), {
    path: "hello.txt",
    content: `${lines.join("\n")}\n`,
  });
  const rows = shown.trimEnd().split("\n");
  assert.equal(rows[0], "  new file hello.txt, 100 lines:");
  assert.equal(rows[1], "+line 1");
  assert.equal(rows.length, MAX_PREVIEW_LINES + 1);
  assert.equal(rows.at(-1), `... ${100 - (MAX_PREVIEW_LINES - 1)} more lines`);
});

Deno.test("approvalView() diffs a WriteFile over an existing file, cut at 40 lines", async () => {
  const before = Array.from({ length: 200 }, (_, i) => `old ${i}`).join("\n");
  const after = Array.from({ length: 200 }, (_, i) => `old ${i}`)
    .map((line, i) => i % 2 === 0 ? line : `new ${i}`).join("\n");
  const shown = await view(
    request("WriteFile"),
    { path: "hello.txt", content: after },
    { "/ws/hello.txt": before },
  );
  const rows = shown.trimEnd().split("\n");
  assert.equal(rows[0], "--- hello.txt");
  assert.equal(rows.length, MAX_PREVIEW_LINES + 1);
  assert.match(rows.at(-1)!, /^\.\.\. \d+ more lines$/);
});

Deno.test("approvalView() shows the replaced text alone when the file cannot be diffed", async () => {
  const shown = await view(
    request("EditFile"),
    { path: "hello.txt", oldText: "big\n", newText: "small\n" },
    { "/ws/hello.txt": null },
  );
  assert.match(shown, /^--- hello\.txt \(the replaced text\)\n/);
  assert.match(shown, /^-big\n\+small\n$/m);
});

Deno.test("approvalView() escapes control characters of a file's content", async () => {
  const shown = await view(request("WriteFile"), {
    path: "hello.txt",
    content: "safe\x1b[2K\rfake\tcol\n",
  });
  assert.match(shown, /\+safe\\x1b\[2K\\rfake\tcol/);
});

Deno.test("approvalView() shows a Shell call's command, folder, added variables and sandbox", async () => {
  const shown = await view(
    request("Shell", {
      path: WORKSPACE,
      command: "make test",
      env: { CC: "clang", DEBUG: "1" },
      sandboxed: true,
    } as Partial<AgentPermissionRequest>),
    { command: "make test" },
  );
  assert.equal(
    shown,
    "  $ make test\n  in /ws (the workspace)\n  adds CC, DEBUG\n  sandboxed: yes\n",
  );
  const plain = await view(
    request("Shell", { path: "/tmp", command: "ls", outsideWorkspace: true }),
    { command: "ls" },
  );
  assert.equal(plain, "  $ ls\n  in /tmp (outside the workspace)\n");
});

Deno.test("approvalView() shows nothing more for a read", async () => {
  assert.equal(
    await view(request("ReadFile", { action: "read" }), { path: "a" }),
    "",
  );
});
