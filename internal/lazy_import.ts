// Imports a module only when it is needed, unseen by Deno's start-up graph.
//
// Deno fetches every npm package that the program's module graph reaches
// before it runs a line, and a literal `import("./x.ts")` is part of that
// graph even when it never runs: `fello --help` would download the AI SDK,
// the MCP and ACP SDKs and jimp. A computed specifier is resolved, and its
// packages fetched, only when the import runs.
//
// The URL names a module of this package, never a bare npm name: published,
// the package has no import map, and only the static imports of its modules
// are rewritten to `npm:` specifiers (`deno publish` cannot see into a
// computed one).

/**
 * Imports the module at `url`, e.g. `new URL("./run.ts", import.meta.url)`,
 * by a computed specifier; type it with `typeof import("./run.ts")`.
 *
 * @param url The module's URL.
 * @returns The module's namespace.
 */
export function importLazily<T>(url: URL): Promise<T> {
  return import(url.href);
}
