// Sources shared by the outline tests: a TypeScript file with its outline in
// the specification's format, the outline of the TSX fixture, and generated
// files of many functions.

/** A TypeScript file of 28 lines covering the common declarations. */
export const TS_SAMPLE: string = [
  "/** The agent's configuration.", // 1
  " * More text.", // 2
  " */", // 3
  "export interface BaseAgentInfo {", // 4
  "  /** Unique id */", // 5
  "  id: string;", // 6
  "  disabled?: boolean;", // 7
  "}", // 8
  "", // 9
  "/**", // 10
  " * Adds numbers.", // 11
  " */", // 12
  "export function add(a: number, b: number): number {", // 13
  "  return a + b;", // 14
  "}", // 15
  "", // 16
  "export class Greeter {", // 17
  "  greet(name: string): string {", // 18
  "    return `hi ${name}`;", // 19
  "  }", // 20
  "}", // 21
  "", // 22
  "export type Id = string | number;", // 23
  "export const LIMIT = 10;", // 24
  "let counter = 0;", // 25
  "namespace Util {", // 26
  "  export function helper(): void {}", // 27
  "}", // 28
  "",
].join("\n");

/** The outline of {@linkcode TS_SAMPLE} written at `src/sample.ts`. */
export const TS_EXPECTED: string = [
  "File: src/sample.ts",
  "Language: TypeScript",
  "Total lines: 28",
  "─── Symbols ───",
  "interface BaseAgentInfo (lines 4-8)  // The agent's configuration.",
  "    property id (line 6)  // Unique id",
  "    property disabled (line 7)",
  "function add (lines 13-15)  // Adds numbers.",
  "class Greeter (lines 17-21)",
  "    method greet (lines 18-20)",
  "type Id (line 23)",
  "const LIMIT (line 24)",
  "let counter (line 25)",
  "namespace Util (lines 26-28)",
  "    function helper (line 27)",
].join("\n");

/** The outline of the fixture `tests/fixtures/outline/sample.tsx`, in the specification's format. */
export const SAMPLE_TSX_OUTLINE: string[] = [
  "File: sample.tsx",
  "Language: TSX",
  "Total lines: 17",
  "─── Symbols ───",
  "import react (line 1)",
  "interface ButtonProps (lines 4-6)  // Props of the button.",
  "    property label (line 5)",
  "function Button (lines 9-11)  // A button.",
  "const App (lines 13-17)",
];

/** TypeScript of `count` exported functions `fn0`... of three lines each. */
export function manyFunctions(count: number): string {
  return Array.from(
    { length: count },
    (_, i) =>
      `export function fn${i}(a: number): number {\n  return a + ${i};\n}\n`,
  ).join("");
}
