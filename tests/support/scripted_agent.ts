// An agent for the scripted server, and the events of a run: the setup of
// every test of the agent loop.
import {
  type Agent,
  type AgentEvent,
  type AgentOptions,
  createAgent,
} from "../../mod.ts";

/** An agent in `cwd` for the endpoint `server` (model "m"), with `more` options. */
export function scriptedAgent(
  server: { baseURL: string },
  cwd: string,
  more: Partial<AgentOptions> = {},
): Agent {
  return createAgent({ baseURL: server.baseURL, model: "m", cwd, ...more });
}

/** Every event of a run, in order. */
export async function collect(
  events: AsyncIterable<AgentEvent>,
): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}
