// What the agent loop adds on top of the HTTP round trips it makes, and what
// downscaling an oversized image costs next to sending one as it is.
import { createAgent } from "../mod.ts";
import { startScriptedServer } from "../tests/support/scripted_server.ts";
import { sniffImage } from "../agent/_image_format.ts";
import { downscaleImage } from "../agent/_downscale.ts";
import { SEND_LIMITS } from "../agent/image_analysis.ts";

const server = startScriptedServer([
  { match: "plain answer", replies: [{ text: "An answer of a few words." }] },
  {
    match: "with a tool",
    replies: [
      { toolCalls: [{ name: "Plan", arguments: { entries: [] } }] },
      { text: "Done." },
    ],
  },
]);
const workspace = await Deno.makeTempDir({ prefix: "fello_agent_bench_" });
const body = JSON.stringify({
  model: "m",
  stream: true,
  messages: [{ role: "user", content: "plain answer" }],
});

Deno.bench({
  group: "agent step",
  name: "raw fetch of one streamed answer",
  baseline: true,
  async fn() {
    const response = await fetch(`${server.baseURL}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    await response.text();
  },
});

Deno.bench({
  group: "agent step",
  name: "agent.run(): one model call",
  async fn() {
    const agent = createAgent({
      baseURL: server.baseURL,
      model: "m",
      cwd: workspace,
    });
    await agent.run("plain answer");
  },
});

const reused = createAgent({
  baseURL: server.baseURL,
  model: "m",
  cwd: workspace,
});

Deno.bench({
  group: "agent step",
  name: "agent.run(): one model call, agent reused (reset between runs)",
  async fn() {
    reused.reset();
    await reused.run("plain answer");
  },
});

Deno.bench({
  group: "agent step",
  name: "agent.run(): tool call, result, answer (two model calls)",
  async fn() {
    const agent = createAgent({
      baseURL: server.baseURL,
      model: "m",
      cwd: workspace,
    });
    await agent.run("with a tool");
  },
});

const { createJimp } = await import("@jimp/core");
const Jimp = createJimp({ formats: [(await import("@jimp/js-png")).default] });
const big = await new Jimp({ width: 3000, height: 2000, color: 0x3366ccff })
  .getBuffer("image/png");
const bigPng = new Uint8Array(big.buffer, big.byteOffset, big.byteLength);

Deno.bench({
  group: "image",
  name: "sniff a PNG (sent as is)",
  baseline: true,
  fn() {
    sniffImage(bigPng);
  },
});

Deno.bench({
  group: "image",
  name: "downscale a 3000x2000 PNG to 2048 px JPEG",
  async fn() {
    await downscaleImage(bigPng, SEND_LIMITS);
  },
});

globalThis.addEventListener("unload", () => {
  Deno.removeSync(workspace, { recursive: true });
});
