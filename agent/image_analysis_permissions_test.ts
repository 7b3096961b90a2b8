// ImageAnalysis downscaling a large image in a child process run with the
// permissions a user would give: createAgent()'s documented ones, with and
// without --allow-env, and without read access to the package.
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { type CliOutput, decoded, MOD } from "../tests/support/fello_cli.ts";
import {
  callsTool,
  startScriptedServer,
} from "../tests/support/scripted_server.ts";
import { widePng } from "../tests/support/wide_png.ts";
import { withWorkspace } from "../tests/support/workspace.ts";

const PACKAGE = dirname(MOD);
const CONFIG = join(PACKAGE, "deno.json");

/** Runs `script` in a child `deno run` with exactly `flags`; never throws. */
async function runChild(
  flags: string[],
  script: string,
): Promise<CliOutput> {
  return decoded(
    await new Deno.Command(Deno.execPath(), {
      args: ["run", `--config=${CONFIG}`, "--no-prompt", ...flags, script],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(60_000),
    }).output(),
  );
}

/** What the child printed: the tool's result or error events, and its stderr. */
interface ChildAnalysis {
  events: { type: string; output?: unknown; error?: string }[];
  stderr: string;
}

/**
 * Runs one agent turn in a child process, in a fresh folder, that calls
 * ImageAnalysis on `wide.png`; the child may reach 127.0.0.1, read the
 * hostname and the folder, and, as `grant` says, the environment and the
 * package.
 */
async function analyzeInChild(
  grant: { env: boolean; readPackage: boolean },
): Promise<ChildAnalysis> {
  let analysis: ChildAnalysis | undefined;
  await withWorkspace(async (dir) => {
    const read = grant.readPackage ? `${dir},${PACKAGE}` : dir;
    analysis = await analyzeIn(dir, [
      "--allow-net=127.0.0.1",
      "--allow-sys=hostname",
      ...grant.env ? ["--allow-env"] : [],
      `--allow-read=${read}`,
    ]);
  });
  return analysis!;
}

/** {@linkcode analyzeInChild} in `dir`, the child run with exactly `flags`. */
async function analyzeIn(dir: string, flags: string[]): Promise<ChildAnalysis> {
  const ws = join(dir, "ws");
  await Deno.mkdir(ws);
  await Deno.writeFile(join(ws, "wide.png"), await widePng());
  await using server = startScriptedServer([
    {
      match: "look at the strip",
      replies: [
        callsTool("ImageAnalysis", { path: "wide.png" }),
        { text: "done" },
      ],
    },
    { match: "Describe this image", replies: [{ text: "a red strip" }] },
  ]);
  const script = join(dir, "child.ts");
  await Deno.writeTextFile(
    script,
    `import { createAgent } from ${JSON.stringify(MOD)};
const agent = createAgent({ baseURL: ${
      JSON.stringify(server.baseURL)
    }, model: "m", cwd: ${JSON.stringify(ws)}, permissionMode: "readOnly" });
for await (const event of agent.stream("look at the strip")) {
  if (event.type === "tool-result" || event.type === "tool-error") {
    console.log(JSON.stringify(event));
  }
}
`,
  );
  const { code, stdout, stderr } = await runChild(flags, script);
  assert.equal(code, 0, stderr);
  const events = stdout.trim().split("\n").filter(Boolean).map((line) =>
    JSON.parse(line)
  );
  return { events, stderr };
}

Deno.test("ImageAnalysis downscales a large image under createAgent()'s documented permissions, without --allow-env", async () => {
  const { events } = await analyzeInChild({ env: false, readPackage: true });
  assert.equal(events.length, 1);
  assert.equal(events[0].type, "tool-result", events[0].error);
  const output = events[0].output as {
    resized: boolean;
    sent: { mediaType: string; width: number };
  };
  assert.equal(output.resized, true);
  assert.equal(output.sent.mediaType, "image/jpeg");
  assert.equal(output.sent.width, 2048);
});

Deno.test("ImageAnalysis without read access to the package prints no uncaught error and does not blame the image", async () => {
  const { events, stderr } = await analyzeInChild({
    env: true,
    readPackage: false,
  });
  assert.doesNotMatch(stderr, /Uncaught/);
  assert.equal(events.length, 1);
  if (events[0].type === "tool-error") {
    assert.match(events[0].error!, /--allow-read/);
    assert.doesNotMatch(events[0].error!, /damaged/);
  }
});

Deno.test("ImageAnalysis downscales a large image with --allow-env, and the script exits", async () => {
  const { events, stderr } = await analyzeInChild({
    env: true,
    readPackage: true,
  });
  assert.equal(stderr, "");
  assert.equal(events.length, 1);
  assert.equal(events[0].type, "tool-result", events[0].error);
  assert.deepEqual(
    (events[0].output as { sent: unknown }).sent,
    {
      mediaType: "image/jpeg",
      width: 2048,
      height: 32,
      bytes: (events[0].output as { sent: { bytes: number } }).sent.bytes,
    },
  );
});
