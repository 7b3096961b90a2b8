// EditFile with its syntax check against EditFile without one, on the same
// 500 KB of TypeScript: the baseline edits a copy named `.txt`, which no
// check reads. Each call flips one value back and forth, so every edit is a
// real change; after the warm-up the pool is warm and its worker keeps the
// tree of the file's last text. Edits are timed one by one after a pause, as
// an agent's come (a model's turn apart): the worker parses the whole new
// text after it answered a check from the part the edit touches, and
// back-to-back calls would wait for that. A second group checks a file with
// no kept tree every time: the cost of a file's first edit, parsed whole.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createTools } from "../mod.ts";

const DATA = fileURLToPath(
  new URL("../.bench-data/edit-verify/", import.meta.url),
);
const SIZE = 500 * 1024;

/** About `size` bytes of TypeScript: classes, interfaces and functions. */
function source(size: number): string {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < size; i++) {
    const part = `/** Settings of widget ${i}. */
export interface Widget${i}Options {
  name: string;
  size?: number;
  tags: readonly string[];
}

export class Widget${i} {
  #options: Widget${i}Options;
  constructor(options: Widget${i}Options) {
    this.#options = { ...options, size: options.size ?? ${i} };
  }
  get label(): string {
    return \`\${this.#options.name} (\${this.#options.tags.join(", ")})\`;
  }
  resize(by: number): number {
    const next = (this.#options.size ?? 0) + by * ${i % 7};
    return next > 100 ? 100 : next;
  }
}

export function makeWidget${i}(name: string): Widget${i} {
  return new Widget${i}({ name, tags: ["a", "b"] });
}
`;
    parts.push(part);
    length += part.length;
  }
  return parts.join("\n");
}

await Deno.mkdir(DATA, { recursive: true });
const text = source(SIZE);
const middle = Math.floor(text.length / 2);
const marker = "by * ";
const at = text.indexOf(marker, middle);
// The one place edited: a unique `by * <n>;` in the middle of the file.
const line = text.slice(at, text.indexOf(";", at) + 1);
const edited = `${line} // the edited line`;
const content = text.slice(0, at) + text.slice(at).replace(line, edited);
const flipped = edited.replace(marker, "by / ");
await Deno.writeTextFile(join(DATA, "big.ts"), content);
await Deno.writeTextFile(join(DATA, "big.txt"), content);

const tools = createTools({ cwd: DATA, permissionMode: "allow" });

/** The pause before each timed edit: a model's turn is seconds. */
const TURN_MS = 50;
/** Timed edits per bench: single ones vary by 10x on a loaded machine. */
const ROUNDS = 60;

// An edit that flips the value each call, timed alone after a pause in
// which the worker finishes what it does after answering (see the header).
function flipper(path: string): (b: Deno.BenchContext) => Promise<void> {
  let flips = 0;
  return async (b) => {
    const [oldText, newText] = flips++ % 2 === 0
      ? [edited, flipped]
      : [flipped, edited];
    await new Promise((resolve) => setTimeout(resolve, TURN_MS));
    b.start();
    await tools.EditFile.execute({ path, oldText, newText });
    b.end();
  };
}

Deno.bench({
  group: "EditFile 500 KB TypeScript, warm pool",
  name: "without the check (.txt) (baseline)",
  baseline: true,
  n: ROUNDS,
  fn: flipper("big.txt"),
});

Deno.bench({
  group: "EditFile 500 KB TypeScript, warm pool",
  name: "with the check, from the kept tree",
  n: ROUNDS,
  fn: flipper("big.ts"),
});

// A new name each time: no kept tree, so both texts are parsed whole.
let copies = 0;
function firstEdit(extension: string): (b: Deno.BenchContext) => Promise<void> {
  return async (b) => {
    const name = `first-${copies++}${extension}`;
    await Deno.writeTextFile(join(DATA, name), content);
    b.start();
    await tools.EditFile.execute({
      path: name,
      oldText: edited,
      newText: flipped,
    });
    b.end();
    await Deno.remove(join(DATA, name));
  };
}

Deno.bench({
  group: "EditFile 500 KB TypeScript, first edit of a file",
  name: "without the check (.txt) (baseline)",
  baseline: true,
  fn: firstEdit(".txt"),
});

Deno.bench({
  group: "EditFile 500 KB TypeScript, first edit of a file",
  name: "with the check, parsed whole",
  fn: firstEdit(".ts"),
});
