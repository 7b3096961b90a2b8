import assert from "node:assert/strict";
import { join } from "node:path";
import { ToolContext } from "../context.ts";
import { createLocalFiles } from "../local_files.ts";
import { createLocalProcesses } from "../shell/local_processes.ts";
import { createRg, renderRg } from "./rg.ts";
import type { PermissionRequest } from "../types.ts";
import { runDeno } from "../../tests/support/run_deno.ts";
import { withDirs } from "../../tests/support/workspace.ts";
import { ignoreWithout } from "../../tests/support/has.ts";

function rgTool(
  workspace: string,
  approve?: (r: PermissionRequest) => boolean,
) {
  return createRg(
    new ToolContext({
      workspace,
      permissionMode: "ask",
      approve,
      files: createLocalFiles(),
      processes: createLocalProcesses(),
    }),
  );
}

const hasRipgrep = (() => {
  try {
    return new Deno.Command("rg", { args: ["--version"], stdout: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
})();

Deno.test("rg refuses --pre and asks before reading an existing path outside the workspace", async () => {
  const root = await Deno.makeTempDir({ prefix: "rg_test_" });
  const outside = await Deno.makeTempDir({ prefix: "rg_outside_" });
  try {
    const asked: PermissionRequest[] = [];
    const rg = rgTool(root, (request) => {
      asked.push(request);
      return false;
    });
    await assert.rejects(
      () => rg.execute({ args: ["--pre=sh", "x"] }),
      /Cannot run rg with "--pre=sh": --pre runs an arbitrary program/,
    );
    await assert.rejects(
      () => rg.execute({ args: ["--hostname-bin", "sh", "x"] }),
      /--hostname-bin runs an arbitrary program/,
    );
    // After "--", "--pre" is only a pattern.
    await assert.rejects(
      () => rg.execute({ args: ["--", "--pre", outside] }),
      /Refused by the user/,
    );
    await assert.rejects(
      () => rg.execute({ args: ["needle", outside] }),
      /Refused by the user/,
    );
    assert.deepEqual(asked.map((r) => [r.tool, r.action, r.path]), [
      ["rg", "read", outside],
      ["rg", "read", outside],
    ]);
    await assert.rejects(() => rg.execute({ args: [] }), /"args"/);
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test({
  name: "rg cuts big output at its limit and stops ripgrep",
  ignore: !hasRipgrep,
  fn: async () => {
    const root = await Deno.makeTempDir({ prefix: "rg_big_" });
    try {
      const lines = Array.from({ length: 20_000 }, (_, i) => `needle ${i}`);
      await Deno.writeTextFile(join(root, "big.txt"), lines.join("\n"));
      const rg = rgTool(root);
      const result = await rg.execute({ args: ["needle"] });
      assert.equal(result.truncated, true);
      assert.equal(result.exitCode, null);
      assert.ok(result.output.length <= 50_000);
      assert.ok(result.output.endsWith("\n"), "cut at a line end");
      assert.match(result.output, /^big\.txt:1:needle 0$/m);
      assert.match(
        renderRg(result),
        /Output cut at 50000 bytes and rg stopped/,
      );
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "rg keeps the start of a match line longer than its limit, cut on a character",
  ignore: !hasRipgrep,
  fn: async () => {
    const root = await Deno.makeTempDir({ prefix: "rg_line_" });
    try {
      // "1:a" then 2-byte characters: byte 50,000 is the first half of one.
      await Deno.writeTextFile(
        join(root, "line.txt"),
        `a${"é".repeat(40_000)}`,
      );
      const rg = rgTool(root, () => true);
      const result = await rg.execute({
        args: ["--max-columns=0", "é", "line.txt"],
      });
      assert.equal(result.truncated, true);
      const [text, note] = result.output.split("… ");
      assert.equal(text, `1:a${"é".repeat(24_998)}`);
      assert.equal(
        note,
        "[line cut: it is longer than the 50000-byte output limit]\n",
      );
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test("rg does not start ripgrep for a call cancelled before or while it was approved", async () => {
  const root = await Deno.makeTempDir({ prefix: "rg_abort_" });
  const outside = await Deno.makeTempDir({ prefix: "rg_abort_out_" });
  try {
    await assert.rejects(
      () =>
        rgTool(root).execute({ args: ["needle"] }, {
          signal: AbortSignal.abort(),
        }),
      /Did not run rg needle: the call was cancelled/,
    );
    // The cancel arrives while the user is asked, and the user says yes: the
    // gate or rg itself refuses, whichever sees it first.
    const controller = new AbortController();
    const rg = rgTool(root, () => {
      controller.abort();
      return true;
    });
    await assert.rejects(
      () =>
        rg.execute({ args: ["needle", outside] }, {
          signal: controller.signal,
        }),
      /the call was (cancelled|aborted)/,
    );
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

/** `ws/link` -> `out/dir`, and a file beside that folder. */
async function plantLink(ws: string, out: string): Promise<void> {
  await Deno.mkdir(join(out, "dir"));
  await Deno.writeTextFile(join(out, "secret.txt"), "needle\n");
  await Deno.symlink(join(out, "dir"), join(ws, "link"));
  await Deno.mkdir(join(ws, "sub"));
}

Deno.test("rg asks about 'link/..' and -f/--ignore-file values by where they really lead", async () => {
  await withDirs(async ({ ws, out }) => {
    await plantLink(ws, out);
    const asked: PermissionRequest[] = [];
    const rg = rgTool(ws, (request) => {
      asked.push(request);
      return false;
    });
    for (
      const args of [
        ["needle", "link/.."],
        ["-f", "link/../secret.txt", "sub"],
        ["--ignore-file=link/../secret.txt", "needle"],
      ]
    ) {
      await assert.rejects(() => rg.execute({ args }), /Refused by the user/);
    }
    assert.deepEqual(asked.map((r) => [r.path, r.outsideWorkspace]), [
      [out, true],
      [join(out, "secret.txt"), true],
      [join(out, "secret.txt"), true],
    ]);
    assert.equal(
      asked[0].description,
      `Let rg read "link/..", which is "${out}"`,
    );
    // A real folder's `..` stays inside: nothing to ask.
    asked.length = 0;
    await rg.execute({ args: ["needle", "sub/.."] }).catch(() => {});
    assert.deepEqual(asked, []);
  });
});

Deno.test(
  "rg under a narrow --allow-read refuses a path whose real path is out of the grant, naming it",
  { ignore: ignoreWithout("rg") },
  async () => {
    await withDirs(async ({ ws, out }) => {
      await plantLink(ws, out);
      const script = join(ws, "child.ts");
      await Deno.writeTextFile(script, RG_CHILD);
      const calls = [
        ["needle", "link"],
        ["needle", "link/.."],
        ["-f", "link/../secret.txt", "sub"],
        ["needle", "sub/.."],
      ];
      const { stdout } = await runDeno(
        [
          `--allow-read=${ws},${import.meta.dirname}`,
          "--allow-run=rg",
        ],
        script,
        [ws, JSON.stringify(calls)],
      );
      const [link, up, patterns, inside] = JSON.parse(stdout);
      assert.equal(
        link,
        `Deno denies reading "${ws}/link": it leads through a symlink to "${out}/dir", outside the granted "${ws}"; run deno again with --allow-read=${out}/dir (or a parent folder)`,
      );
      assert.ok(up.includes(`--allow-read=${out} `), up);
      assert.ok(patterns.includes(`--allow-read=${out}/secret.txt `), patterns);
      // Inside the grant, rg runs (or is missing from PATH): no Deno denial.
      if (hasRipgrep) assert.equal(inside, "ran");
      assert.doesNotMatch(inside, /Deno denies/);
    });
  },
);

/** Runs rg calls (Deno.args[1], JSON) in the workspace Deno.args[0]; prints each error message or "ran". */
const RG_CHILD = `
import { ToolContext } from ${
  JSON.stringify(import.meta.resolve("../context.ts"))
};
import { createLocalFiles } from ${
  JSON.stringify(import.meta.resolve("../local_files.ts"))
};
import { createLocalProcesses } from ${
  JSON.stringify(import.meta.resolve("../shell/local_processes.ts"))
};
import { createRg } from ${JSON.stringify(import.meta.resolve("./rg.ts"))};
const [workspace, calls] = Deno.args;
const rg = createRg(new ToolContext({
  workspace,
  permissionMode: "allow",
  files: createLocalFiles(),
  processes: createLocalProcesses(),
}));
const messages = [];
for (const args of JSON.parse(calls)) {
  messages.push(await rg.execute({ args }).then(() => "ran", (e) => e.message));
}
console.log(JSON.stringify(messages));
`;
