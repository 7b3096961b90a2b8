// Huge messages through `fello acp` and its sessions: a 33 MB request and an
// MCP server answering 11 MB, after which each goes on answering.
import assert from "node:assert/strict";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { createAcpAgent } from "./acp_agent.ts";
import { TestClient } from "../tests/support/acp_test_client.ts";
import { spawnFello } from "../tests/support/fello_cli.ts";
import {
  contentText,
  startScriptedServer,
  toolMessages,
} from "../tests/support/scripted_server.ts";
import { withWorkspace } from "../tests/support/workspace.ts";

const CONFIG = new URL("../deno.json", import.meta.url).pathname;
import { MB } from "../tests/support/child_peak.ts";
Deno.test({
  name: "fello acp answers the next request after a 33 MB message",
  async fn() {
    await withWorkspace(async (dir) => {
      const child = spawnFello(
        ["acp", "--base-url", "http://127.0.0.1:9/v1", "--model", "m"],
        { cwd: dir, env: { FELLO_STATE_DIR: dir }, stdin: "piped" },
      );
      // A hang fails the test: the agent is killed after 60 s.
      const limit = setTimeout(() => {
        try {
          child.kill("SIGKILL");
        } catch {
          // Already gone.
        }
      }, 60_000);
      const writer = child.stdin.getWriter();
      const encoder = new TextEncoder();
      const send = (message: unknown) =>
        writer.write(encoder.encode(`${JSON.stringify(message)}\n`));
      const init = {
        jsonrpc: "2.0",
        method: "initialize",
        params: { protocolVersion: 1, clientCapabilities: {} },
      };
      const answered = new Set<number>();
      const reading = (async () => {
        let buffer = "";
        const decoder = new TextDecoder();
        for await (const chunk of child.stdout) {
          buffer += decoder.decode(chunk, { stream: true });
          for (
            let at = buffer.indexOf("\n");
            at >= 0;
            at = buffer.indexOf("\n")
          ) {
            const id = JSON.parse(buffer.slice(0, at)).id;
            if (typeof id === "number") answered.add(id);
            buffer = buffer.slice(at + 1);
            if (answered.has(3)) return;
          }
        }
      })();
      try {
        await send({ ...init, id: 1 });
        await send({
          jsonrpc: "2.0",
          id: 2,
          method: "session/prompt",
          params: {
            sessionId: "none",
            prompt: [{ type: "text", text: "x".repeat(33 * MB) }],
          },
        });
        await send({ ...init, id: 3 });
      } catch {
        // The agent may have gone: what it answered tells.
      }
      await reading;
      await writer.close().catch(() => {});
      try {
        child.kill();
      } catch {
        // It has ended on its own.
      }
      await child.status;
      clearTimeout(limit);
      assert.ok(answered.has(1));
      assert.ok(answered.has(3), "the request after the big one was answered");
    });
  },
});

Deno.test({
  name: "acp session keeps an MCP server after it answers 11 MB",
  async fn() {
    await withWorkspace(async (dir) => {
      const script = join(dir, "big_mcp.ts");
      await Deno.writeTextFile(
        script,
        `import { McpServer } from "@modelcontextprotocol/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { z } from "zod";
const server = new McpServer({ name: "big", version: "1.0.0" });
const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });
server.registerTool("big_output", { description: "11 MB", inputSchema: z.object({}) }, () => text("x".repeat(11_000_000)));
server.registerTool("small_output", { description: "small", inputSchema: z.object({}) }, () => text("small ok"));
await server.connect(new StdioServerTransport());
`,
      );
      await using server = startScriptedServer([{
        match: "call both",
        replies: [
          {
            toolCalls: [{ id: "call_big", name: "big_output", arguments: {} }],
          },
          {
            toolCalls: [{
              id: "call_small",
              name: "small_output",
              arguments: {},
            }],
          },
          { text: "done" },
        ],
      }]);
      const client = new TestClient();
      const agent = createAcpAgent({
        baseURL: server.baseURL,
        model: "test-model",
      });
      const connection = client.app.connect(agent);
      try {
        await connection.agent.request(acp.methods.agent.initialize, {
          protocolVersion: acp.PROTOCOL_VERSION,
          clientCapabilities: client.capabilities,
        });
        const { sessionId } = await connection.agent.request(
          acp.methods.agent.session.new,
          {
            cwd: dir,
            mcpServers: [{
              name: "big",
              command: Deno.execPath(),
              args: [
                "run",
                "-A",
                `--config=${CONFIG}`,
                script,
              ],
              env: [],
            }],
          },
        );
        await connection.agent.request(acp.methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: "text", text: "call both" }],
        });
        const small = server.requests.flatMap(toolMessages).find((m) =>
          m.tool_call_id === "call_small"
        );
        assert.equal(contentText(small?.content), "small ok");
      } finally {
        connection.close();
      }
    });
  },
});
