// Review of recent commits (doc comments from text, blocking worker reads,
// the head start of a fresh pool's pieces, collapsed ** runs, ACP summary and
// plan updates). Tests whose comments say "Was a fault" reproduced one,
// fixed since.
import assert from "node:assert/strict";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { withSummary } from "../agent/context_summary.ts";
import { saveSession } from "../agent/session_file.ts";
import type { AgentMessage } from "../agent/types.ts";
import { Outliner } from "../outline/outliner.ts";
import { replayUpdates } from "../protocols/_acp_replay.ts";
import { createTools } from "../tools/create_tools.ts";
import type { PlanEntry } from "../tools/plan/plan.ts";
import { connect } from "./support/acp_connect.ts";
import { startScriptedServer } from "./support/scripted_server.ts";
import { pieceStarts } from "../outline/_pieces.ts";
import { languageForExtension } from "../outline/languages/_registry.ts";
import { collapseStars, GitIgnore } from "../tools/search/_gitignore.ts";
import { withWorkspace } from "./support/workspace.ts";

async function _mkfifo(path: string): Promise<void> {
  const made = await new Deno.Command("mkfifo", { args: [path] }).output();
  assert.ok(made.success, new TextDecoder().decode(made.stderr));
}

// Settles `promise` within `ms`, or answers "pending".
function _within<T>(promise: Promise<T>, ms: number): Promise<T | "pending"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<"pending">((done) => {
      timer = setTimeout(() => done("pending"), ms);
    }),
  ]);
}

Deno.test({
  name:
    "Outliner.outline() does not hang when a regular file is replaced by a FIFO after its stat",
  // Was a fault (717ef7a): _stat() refused a FIFO, but the worker read the
  // path later with a blocking read, and a file renamed over by a FIFO in
  // between (the worker boots in 40-60 ms) hung the worker and the script.
  // The worker now checks the file itself before it opens it, and the pool
  // replaces a worker whose job never answers.
  async fn() {
    await withWorkspace(async (dir) => {
      const path = join(dir, "a.ts");
      await Deno.writeTextFile(path, "function f() {}\n");
      await _mkfifo(join(dir, "pipe"));
      const outliner = new Outliner({ workers: 1 });
      const outlined = outliner.outline(path);
      // #parse() counts the parse right after the stat: swap the file then.
      while (outliner.parses === 0) await new Promise((r) => setTimeout(r, 0));
      await Deno.rename(join(dir, "pipe"), path);
      const settled = await _within(outlined.catch((e) => e), 3000);
      // Release a blocked read (EOF) so the test can end either way.
      if (settled === "pending") {
        (await Deno.open(path, { write: true })).close();
      }
      await outlined.catch(() => {});
      await outliner.terminate();
      assert.notEqual(settled, "pending", "the outline hung on the FIFO");
      assert.equal(
        (settled as Error).message,
        'Cannot outline "a.ts": it is not a regular file (a device, socket or pipe)'
          .replace("a.ts", path),
      );
    });
  },
});

Deno.test("Outliner.outline() refuses a symlink to a FIFO, a socket and /dev/null, naming the file", async () => {
  await withWorkspace(async (dir) => {
    await _mkfifo(join(dir, "pipe"));
    await Deno.symlink(join(dir, "pipe"), join(dir, "to_pipe.ts"));
    await Deno.symlink("/dev/null", join(dir, "null.py"));
    const listener = Deno.listen({
      transport: "unix",
      path: join(dir, "s.go"),
    });
    const outliner = new Outliner({ workers: 1 });
    try {
      for (const name of ["to_pipe.ts", "null.py", "s.go"]) {
        await assert.rejects(outliner.outline(name, { cwd: dir }), {
          name: "ToolError",
          message:
            `Cannot outline "${name}": it is not a regular file (a device, socket or pipe)`,
        });
      }
    } finally {
      listener.close();
      await outliner.terminate();
    }
  });
});

// Doc comments (f4d030f): each comment's end row is now counted from its
// text. A differential run of the old and new precedingComments() over
// 137,000 nodes of generated files in all ten grammars (LF, CRLF, CR, LFCR
// endings, emoji, U+2028, comments after code) found no difference; this
// pins the docs of a few such files, the same with LF and CRLF.
const DOC_SOURCES: Record<string, { source: string; docs: unknown[] }> = {
  ".ts": {
    source:
      "/**\n * Doc A.\n */\nfunction a() {}\n\n/** Far. */\n\nfunction b() {}\nlet x = 1; /** Trailing. */\nfunction c() {}\n",
    // A JSDoc counts across one blank line (since session 15), as
    // TypeScript reads it.
    docs: [["a", "Doc A."], ["b", "Far."], ["x", null], ["c", null]],
  },
  ".kt": {
    source: "/**\n * Doc K.\n */\nfun k() {}\n\n/** Far. */\n\nfun f() {}\n",
    docs: [["k", "Doc K."], ["f", null]],
  },
  ".swift": {
    source:
      "/// Doc S.\n/// more\nfunc s() {}\nlet x = 1 /// trailing\nfunc t() {}\n",
    docs: [["s", "Doc S."], ["x", null], ["t", null]],
  },
  ".dart": {
    source: "/// Doc D.\nvoid d() {}\n\n/** Block D. */\nvoid e() {}\n",
    docs: [["d", "Doc D."], ["e", "Block D."]],
  },
  ".cpp": {
    source: "/// Doc P.\nint p();\n/* plain */\n/// Doc Q.\nint q();\n",
    docs: [["p", "Doc P."], ["q", "Doc Q."]],
  },
};

Deno.test("Doc comments above a symbol are the same with LF and CRLF line ends", async () => {
  await withWorkspace(async (dir) => {
    const outliner = new Outliner({ workers: 1 });
    try {
      for (const [ext, { source, docs }] of Object.entries(DOC_SOURCES)) {
        for (const [eol, name] of [["\n", "lf"], ["\r\n", "crlf"]]) {
          const path = join(dir, `${name}${ext}`);
          await Deno.writeTextFile(path, source.replaceAll("\n", eol));
          const { symbols } = await outliner.outline(path);
          assert.deepEqual(
            symbols.map((s) => [s.name, s.doc ?? null]),
            docs,
            `${ext} with ${name}`,
          );
        }
      }
    } finally {
      await outliner.terminate();
    }
  });
});

// A file of `count` declarations separated by blank lines, some on one very
// long line, with `eol` line ends.
/** A successful Plan call and its result, as a saved conversation has them. */
function planCall(input: unknown): AgentMessage[] {
  return [
    {
      role: "assistant",
      content: [{
        type: "tool-call",
        toolCallId: "p1",
        toolName: "Plan",
        input,
      }],
    },
    {
      role: "tool",
      content: [{
        type: "tool-result",
        toolCallId: "p1",
        toolName: "Plan",
        output: { type: "text", value: "Plan updated" },
      }],
    },
  ] as AgentMessage[];
}

function _declarations(ext: string, count: number, eol: string): string {
  const parts: string[] = [];
  for (let i = 0; i < count; i++) {
    const long = i % 5 === 3 ? "y".repeat(3000) : "y";
    parts.push(
      ext === ".py"
        ? `# F${i}.\ndef f${i}(a):\n    """Doc ${i}."""\n    return "${long}"`
        : ext === ".c"
        ? `/** Doc ${i}. */\nint f${i}(int a) {\n  return a; /* ${long} */\n}`
        : `/** Doc ${i}. */\nexport function f${i}(a: number): string {\n  return "${long}";\n}\nclass C${i} {\n  m() {}\n}`,
    );
  }
  return parts.join("\n\n").replaceAll("\n", eol) + eol;
}

Deno.test("A fresh pool's pieces outline a file exactly as one whole parse does", async () => {
  await withWorkspace(async (dir) => {
    const whole = new Outliner({ workers: 1, splitBytes: Infinity });
    let split = 0;
    try {
      for (const ext of [".ts", ".py", ".c"]) {
        for (
          const [eol, count] of [["\n", 30], ["\r\n", 7], ["\n", 3]] as const
        ) {
          const path = join(dir, `f${count}${ext}`);
          const text = _declarations(ext, count, eol);
          await Deno.writeTextFile(path, text);
          const expected = await whole.outline(path);
          for (const workers of [2, 4]) {
            // Just over the split size for `workers` pieces: a fresh pool
            // (one worker booting) each time, so the head start applies.
            const pool = new Outliner({
              workers,
              splitBytes: Math.floor(2 * text.length / workers) - 1,
            });
            try {
              assert.deepEqual(await pool.outline(path), expected, path);
              split += pool.pieceOutlines;
            } finally {
              await pool.terminate();
            }
          }
        }
      }
      assert.ok(split >= 8, `only ${split} outlines were joined from pieces`);
    } finally {
      await whole.terminate();
    }
  });
});

Deno.test("pieceStarts() with a head start keeps its starts in order, at line starts, inside the file", () => {
  const lines = ["", "x".repeat(2000), "function f() {}", "a = 1"];
  for (const ext of [".ts", ".py", ".c"]) {
    const spec = languageForExtension(ext)!;
    for (let n = 1; n < 40; n += 3) {
      const text = Array.from({ length: n }, (_, i) => lines[(i * 7) % 4])
        .join(n % 2 ? "\r\n" : "\n");
      const bytes = new TextEncoder().encode(text);
      for (const count of [2, 3, 4, 5]) {
        for (const running of [0, 1, 2, count]) {
          for (const headStart of [0, 100, 8000 * bytes.length, Infinity]) {
            const starts = pieceStarts(bytes, count, spec, {
              running,
              headStart,
            });
            assert.ok(starts.length < count);
            starts.forEach((start, i) => {
              assert.ok(start > (starts[i - 1] ?? 0) && start < bytes.length);
              assert.equal(bytes[start - 1], 10);
            });
          }
        }
      }
    }
  }
});

Deno.test({
  name: "GitIgnore matches a run of *** segments (git's **) at once",
  // Was a fault (846149c), fixed: git reads a segment of three or more stars as `**`
  // (`git check-ignore` ignores a/x/y/b for both `a/***/b` and
  // `a/***/***/b`), but collapseStars() only collapses runs of exactly `**/`,
  // and the ignore package still takes time exponential in the run: 6
  // segments took 0.7 s per path 40 folders deep, 7 took 2.8 s, 8 took 17 s.
  // A repository's .gitignore holding `a/***/***/***/***/***/***/***/***/b`
  // still stalls every search and outline of the folder. Expected: a run of
  // star-only segments (`**`, `***`, ...) collapsed to one `**`.
  async fn() {
    await withWorkspace(async (dir) => {
      await Deno.writeTextFile(
        join(dir, ".gitignore"),
        `a/${"***/".repeat(8)}b\n`,
      );
      const rules = await new GitIgnore().enter(dir);
      const deep = join(dir, "a", ..."x".repeat(40).split(""));
      const started = performance.now();
      assert.equal(rules.ignores(join(deep, "c"), false), false);
      // Generous: a collapsed run answers in well under a millisecond.
      assert.ok(performance.now() - started < 5000, "the match stalled");
    });
  },
});

Deno.test("collapseStars() keeps what git ignores, for negations, escapes, classes, spaces and comments", async () => {
  const patterns = [
    "a/**/**/b",
    "!a/**/**/b",
    "**/**/b",
    "/**/**/b",
    "a/**/**/",
    "a/**/** ",
    "a/**/**\\ ",
    "a/**/**/**",
    "**/**",
    "\\**/**/**/b",
    "a/\\**/**/b",
    "#**/**/b",
    "a[/**/**/]b",
    "x**/**/b",
    "**/**/a/**/**",
  ];
  const paths = ["b", "a/b", "a/x/b", "a/x/y/b", "x/a/b", "a/x/", "*b", "a/*b"]
    .join("\n");
  await withWorkspace(async (dir) => {
    await new Deno.Command("git", { args: ["init", "-q"], cwd: dir }).output();
    const ignored = async (rules: string) => {
      await Deno.writeTextFile(join(dir, ".gitignore"), `${rules}\n`);
      const git = new Deno.Command("git", {
        args: ["check-ignore", "--no-index", "--stdin"],
        cwd: dir,
        stdin: "piped",
        stdout: "piped",
      }).spawn();
      const writer = git.stdin.getWriter();
      await writer.write(new TextEncoder().encode(paths));
      await writer.close();
      return new TextDecoder().decode((await git.output()).stdout);
    };
    for (const pattern of patterns) {
      assert.equal(
        await ignored(collapseStars(pattern)),
        await ignored(pattern),
        `${JSON.stringify(pattern)} -> ${
          JSON.stringify(collapseStars(pattern))
        }`,
      );
    }
  });
});

Deno.test("session/load replays a summary only as the client's capabilities allow, and the plan to all", async () => {
  await withWorkspace(async (dir) => {
    const saved = join(dir, ".sessions");
    const entries = [
      { content: "Read it", priority: "high", status: "completed" },
      { content: "Fix it", priority: "low", status: "pending" },
    ];
    const messages = [
      ...withSummary("SUMMARY of 3 turns", [], {
        role: "user",
        content: "Go on",
      }),
      ...planCall({ entries }),
      { role: "assistant", content: "Done." },
    ] as AgentMessage[];
    await saveSession(join(saved, "s1.json"), {
      cwd: dir,
      model: "m",
      messages,
    });
    await using server = startScriptedServer([]);
    const load = async (session?: acp.ClientSessionCapabilities) => {
      const { client, connection } = await connect(server, saved, { session });
      await connection.agent.request(acp.methods.agent.session.load, {
        sessionId: "s1",
        cwd: dir,
        mcpServers: [],
      });
      await connection.close();
      return client.updates.map((n) => n.update);
    };
    for (const session of [undefined, { notices: {} }, { compaction: {} }]) {
      const updates = await load(session);
      const kinds = updates.map((u) => u.sessionUpdate);
      const label = JSON.stringify(session);
      assert.ok(!kinds.includes("notice"), label);
      assert.equal(
        kinds.includes("compaction_update"),
        session?.compaction !== undefined,
        label,
      );
      const plans = updates.filter((u) => u.sessionUpdate === "plan");
      assert.deepEqual(plans, [{ sessionUpdate: "plan", entries }], label);
      const texts = updates.flatMap((u) =>
        u.sessionUpdate === "compaction_update"
          ? u.summary?.map((b) => b.type === "text" ? b.text : "") ?? []
          : u.sessionUpdate === "agent_message_chunk" &&
              u.content.type === "text"
          ? [u.content.text]
          : []
      );
      // The summary comes first, then the answer; its text is clean for a
      // compaction.
      assert.equal(texts.at(-1), "Done.", label);
      assert.match(texts[0], /SUMMARY of 3 turns$/, label);
      if (session?.compaction) assert.equal(texts[0], "SUMMARY of 3 turns");
    }
  });
});

Deno.test({
  name: "session/load replays the plan the Plan tool set, not the raw input",
  // Was a fault (e85a7df), fixed: the Plan tool trims each entry's content (zod
  // `.trim()`), and the live `plan` update carries the trimmed entries; the
  // replay sends the saved raw input instead, so an entry the model wrote as
  // "  Fix it\n" shows as "Fix it" live and as "  Fix it\n" after
  // session/load. Expected: the replay shows the plan as the tool set it
  // (trimmed), e.g. by parsing the input with the Plan tool's own schema.
  async fn() {
    const input = {
      entries: [{ content: "  Fix it\n", priority: "low", status: "pending" }],
    };
    const live: PlanEntry[][] = [];
    const tools = createTools({ onPlan: (entries) => void live.push(entries) });
    await tools.Plan.execute(input as Parameters<typeof tools.Plan.execute>[0]);
    const replayed = replayUpdates(planCall(input), {
      cwd: "/w",
      kinds: new Map([["Plan", "think"]]),
    });
    const plan = replayed.find((u) => u.sessionUpdate === "plan");
    assert.deepEqual(live, [[{
      content: "Fix it",
      priority: "low",
      status: "pending",
    }]]);
    assert.deepEqual(plan, { sessionUpdate: "plan", entries: live[0] });
  },
});
