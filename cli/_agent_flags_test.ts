import assert from "node:assert/strict";
import { readAgentFlags } from "./_agent_flags.ts";

Deno.test("readAgentFlags() defaults to ask and no step cap", () => {
  assert.deepEqual(readAgentFlags({}), {
    permissionMode: "ask",
    maxSteps: undefined,
  });
});

Deno.test("readAgentFlags() reads a mode and a step cap", () => {
  assert.deepEqual(
    readAgentFlags({ "permission-mode": "readOnly", "max-steps": "3" }),
    { permissionMode: "readOnly", maxSteps: 3 },
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
});
