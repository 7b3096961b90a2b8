import assert from "node:assert/strict";
import { readAgentFlags } from "./_agent_flags.ts";

Deno.test("readAgentFlags() defaults to ask and no step cap", () => {
  assert.deepEqual(readAgentFlags({}), {
    permissionMode: "ask",
    maxSteps: undefined,
    contextTokens: undefined,
    sandbox: "auto",
    sandboxNetwork: false,
    repoMapTokens: 0,
  });
});

Deno.test("readAgentFlags() reads a mode, a step cap and a context size", () => {
  assert.deepEqual(
    readAgentFlags({
      "permission-mode": "readOnly",
      "max-steps": "3",
      "context-tokens": "32768",
    }),
    {
      permissionMode: "readOnly",
      maxSteps: 3,
      contextTokens: 32768,
      sandbox: "auto",
      sandboxNetwork: false,
      repoMapTokens: 0,
    },
  );
});

Deno.test("readAgentFlags() reads --sandbox and --sandbox-network", () => {
  const flags = readAgentFlags({
    sandbox: "required",
    "sandbox-network": true,
  });
  assert.deepEqual([flags.sandbox, flags.sandboxNetwork], ["required", true]);
  assert.throws(
    () => readAgentFlags({ sandbox: "sometimes" }),
    /--sandbox must be one of auto, off, required, not "sometimes"/,
  );
});

Deno.test("readAgentFlags() names the flag and the bad value", () => {
  assert.throws(
    () => readAgentFlags({ "permission-mode": "sometimes" }),
    /--permission-mode must be one of ask, acceptEdits, allow, readOnly, not "sometimes"/,
  );
  assert.throws(
    () => readAgentFlags({ "max-steps": "1.5" }),
    /--max-steps needs a whole number of at least 1, not "1.5"/,
  );
  assert.throws(
    () => readAgentFlags({ "context-tokens": "32k" }),
    /--context-tokens needs a whole number of at least 1, not "32k"/,
  );
});
