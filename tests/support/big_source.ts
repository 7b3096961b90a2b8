// Generated source files, big enough that parsing them takes a while.

/** A TypeScript file of `count` small functions (about 100 bytes each). */
export function bigTypeScript(count: number, seed: string): string {
  return Array.from(
    { length: count },
    (_, i) =>
      `export function ${seed}${i}(a: number, b: string): number {\n  const x = a + ${i};\n  return x * 2;\n}\n`,
  ).join("");
}
