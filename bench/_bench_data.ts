// Generated large sources of each language for the benches, written into the
// gitignored .bench-data/ folder on first use (real files come from
// tests/support/npm_package.ts).
import { dirname, join } from "node:path";
import { exists } from "../internal/exists.ts";
import { BENCH_DATA } from "../tests/support/npm_package.ts";

/** Writes `text` to .bench-data/generated/<name> unless it is there already. */
export async function generatedFile(
  name: string,
  make: () => string,
): Promise<string> {
  const path = join(BENCH_DATA, "generated", name);
  if (await exists(path)) return path;
  await Deno.mkdir(dirname(path), { recursive: true });
  await Deno.writeTextFile(path, make());
  return path;
}

/** About `bytes` of TypeScript: documented interfaces, classes and functions. */
export function makeTypeScript(bytes: number, seed = 0): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const n = `${seed}_${i}`;
    const part = `/** Options of widget ${n}. */
export interface WidgetOptions${n} {
  /** The width. */
  width: number;
  height?: number;
  label: string;
}

/** Widget number ${n}. */
export class Widget${n} {
  #count = 0;
  constructor(readonly options: WidgetOptions${n}) {}
  /** Renders the widget. */
  render(): string {
    const items = [1, 2, 3].map((x) => x * this.options.width + ${i});
    return \`<div>\${items.join(",")} \${this.options.label}</div>\`;
  }
  get count(): number {
    return this.#count++;
  }
}

export function make${n}(width: number): Widget${n} {
  return new Widget${n}({ width, label: "w${n}" });
}
`;
    parts.push(part);
    size += part.length;
  }
  return parts.join("\n");
}

/** About `bytes` of Python: classes with methods and docstrings, functions. */
export function makePython(bytes: number): string {
  const parts: string[] = ["import os\nfrom typing import Optional\n"];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const part = `

class Handler${i}(object):
    """Handles request kind ${i}."""

    retries: int = 3

    def __init__(self, name: str, parent: Optional["Handler${i}"] = None):
        self.name = name
        self.parent = parent

    @property
    def path(self) -> str:
        """The handler path."""
        return os.path.join(self.parent.path if self.parent else "", self.name)

    def handle(self, payload: dict) -> dict:
        result = {k: v * ${i} for k, v in payload.items() if isinstance(v, int)}
        return result


def make_handler_${i}(name):
    """Builds handler ${i}."""
    return Handler${i}(name)
`;
    parts.push(part);
    size += part.length;
  }
  return parts.join("");
}

/** About `bytes` of C: structs and functions, some inside #ifdef blocks. */
export function makeC(bytes: number): string {
  const parts: string[] = ["#include <stdio.h>\n#include <stdlib.h>\n"];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const part = `
/* A node of list ${i}. */
typedef struct node${i} {
  int value;
  struct node${i} *next;
} node${i}_t;

#ifdef FEATURE_${i % 7}
/* Sums list ${i}. */
static int sum${i}(const node${i}_t *head) {
  int total = 0;
  for (const node${i}_t *n = head; n != NULL; n = n->next) total += n->value * ${i};
  return total;
}
#else
static int sum${i}(const node${i}_t *head) { return head ? head->value : 0; }
#endif

int print${i}(const node${i}_t *head) {
  return printf("%d\\n", sum${i}(head));
}
`;
    parts.push(part);
    size += part.length;
  }
  return parts.join("");
}
