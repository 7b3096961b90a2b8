// Run as its own process by tools/read/read_file_test.ts: reads one line of a
// huge file with ReadFile and prints how much the RSS grew, so that no other
// test running in parallel in the test process counts towards it.
// Usage: deno run --allow-read read_tail_rss.ts <folder> <file> <line>
import { createTools } from "../../mod.ts";

const [cwd, path, line] = Deno.args;
const tools = createTools({ cwd, permissionMode: "allow" });
const before = Deno.memoryUsage().rss;
const result = await tools.ReadFile.execute({ path, line: Number(line) });
const grown = Deno.memoryUsage().rss - before;
console.log(JSON.stringify({ content: result.content, grown }));
