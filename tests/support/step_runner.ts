// A piece of script source for tests that run the tools in a child process
// under narrow permissions and report each step.

/**
 * Script source declaring `out` and `run(name, fn)`: `run` awaits `fn` and
 * stores `{ ok }` or `{ error, toolError }` (whether it threw a ToolError)
 * under `name` in `out`. The script must import `ToolError`.
 */
export const STEP_RUNNER: string = `
const out = {};
async function run(name, fn) {
  try {
    out[name] = { ok: await fn() };
  } catch (error) {
    out[name] = { error: error.message, toolError: error instanceof ToolError };
  }
}
`;
