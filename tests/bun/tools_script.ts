// Run by Bun from tests/bun/smoke_test.ts: the library used as a script uses
// it, in the workspace given as the first argument, printing one JSON object.
import { createTools, fileOutline, outlineSymbols } from "../../mod.ts";

const cwd = process.argv[2];
const tools = createTools({ cwd, permissionMode: "allow" });
await tools.WriteFile.execute({
  path: "a.ts",
  content: "export function f() {}\n",
});
await tools.EditFile.execute({
  path: "a.ts",
  oldText: "f()",
  newText: "g()",
});
await tools.EditSymbol.execute({
  path: "a.ts",
  symbol: "g",
  position: "after",
  newText: "/** H. */\nexport function h() {}\n",
});
const symbol = await tools.ReadFile.execute({ path: "a.ts", symbol: "h" });
const read = await tools.ReadFile.execute({ path: "a.ts" });
const shell = await tools.Shell.execute({ command: "echo $((6 * 7))" });
const found = await tools.search.execute({ pattern: "function" });
const outline = await tools.file_outline.execute({ path: "a.ts" });
const symbols = await outlineSymbols("a.ts", { cwd });
const file = await fileOutline("a.ts", { cwd });
let refused = "";
try {
  tools.permissionMode = "readOnly";
  await tools.WriteFile.execute({ path: "b.ts", content: "" });
} catch (error) {
  refused = (error as Error).message;
}
console.log(JSON.stringify({
  read: read.content,
  symbol: symbol.content,
  shell,
  found,
  outline,
  symbols: symbols.symbols.map((symbol) => symbol.name),
  file,
  refused,
}));
