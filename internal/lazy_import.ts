// Imports that Deno's start-up graph does not see, for what only some commands
// use: the AI SDK, the MCP SDK and jimp by importPackage(), the ACP agent
// (whose SDK runs through many modules) by importLazily().
//
// Deno fetches every npm package that the program's module graph reaches
// before it runs a line, and a literal `import("./x.ts")` is part of that
// graph even when it never runs: `fello --help` would download the AI SDK,
// the MCP and ACP SDKs and jimp. A computed specifier is resolved, and its
// packages fetched, only when the import runs.
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import denoJson from "../deno.json" with { type: "json" };
import { requireDenoPermission } from "./deno_permission.ts";
import { runtime } from "./runtime/runtime.ts";

const IMPORTS: Readonly<Record<string, string>> = denoJson.imports;

/**
 * Imports the npm package `name` (a key of deno.json's `imports`, or a path
 * below one, like `@modelcontextprotocol/server/stdio`) by a computed
 * specifier. Deno gets the pinned `npm:` specifier itself: published, the
 * package has no import map, and `deno publish` rewrites only the imports it
 * can see. Bun resolves the bare name from node_modules. Needs no permission.
 *
 * @param name The package, as the code would import it.
 * @returns The package's namespace; type it with `typeof import("name")`.
 */
export function importPackage<T>(name: string): Promise<T> {
  return import(runtime.name === "deno" ? npmSpecifier(name) : name);
}

function npmSpecifier(name: string): string {
  const exact = IMPORTS[name];
  if (exact !== undefined) return exact;
  const prefix = Object.keys(IMPORTS)
    .filter((key) => key.endsWith("/") && name.startsWith(key))
    .sort((a, b) => b.length - a.length)[0];
  if (prefix === undefined) {
    throw new TypeError(`Cannot import "${name}": deno.json does not map it`);
  }
  return IMPORTS[prefix] + name.slice(prefix.length);
}

/**
 * Imports the module at `url`, a module of this package such as
 * `new URL("../protocols/mcp_server.ts", import.meta.url)`, by a computed
 * specifier. Unlike the modules of the start-up graph, Deno reads it (and
 * the modules it brings in) under the program's read permission, so the read
 * grant on its folder is asked for first (a `ToolError` naming the flag when
 * it is refused).
 *
 * @param url The module's URL.
 * @returns The module's namespace; type it with `typeof import("./x.ts")`.
 */
export async function importLazily<T>(url: URL): Promise<T> {
  if (url.protocol === "file:" && runtime.name === "deno") {
    await requireDenoPermission({
      name: "read",
      path: dirname(fileURLToPath(url)) + "/",
    });
  }
  return await import(url.href);
}
