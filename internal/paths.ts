// Path resolution and workspace containment, decided on real paths so that
// `..`, absolute paths and symlinks pointing out of the workspace all count as outside.
import { dirname, isAbsolute, parse, relative, resolve, sep } from "node:path";
import { fromFileUrl } from "./file_url.ts";
import { ToolError } from "./tool_error.ts";
import { isError, runtime } from "./runtime/runtime.ts";

/**
 * Resolves a tool's `path` argument (relative, absolute, `~/`-relative or
 * `file://` URI) against `base`. Rejects empty paths and NUL bytes with a clear error.
 */
export function resolvePath(base: string, path: string, tool: string): string {
  if (path.length === 0) {
    throw new ToolError(`${tool} needs a non-empty "path"`);
  }
  if (path.includes("\0")) {
    throw new ToolError(
      `${tool} cannot use path ${JSON.stringify(path)}: it contains a NUL byte`,
    );
  }
  const plain = path.startsWith("file://")
    ? fromFileUrl(path, tool)
    : expandHome(path, tool);
  return isAbsolute(plain) ? resolve(plain) : resolve(base, plain);
}

// "~" and "~/x" mean the home folder, as in a shell (models write home paths
// so); "~user" and "x/~" stay literal.
function expandHome(path: string, tool: string): string {
  if (path !== "~" && !/^~[/\\]/.test(path)) return path;
  const variable = runtime.build.os === "windows" ? "USERPROFILE" : "HOME";
  const home =
    runtime.permissions.querySync({ name: "env", variable }).state ===
        "granted"
      ? runtime.env.get(variable)
      : undefined;
  if (home === undefined || !isAbsolute(home)) {
    throw new ToolError(
      `${tool} cannot expand "~" in "${path}": the home folder is unknown (${variable} is unset or Deno denies reading it); give an absolute path`,
    );
  }
  return home + path.slice(1);
}

/** Whether `target` is `root` itself or lies below it (both absolute, normalized). */
export function isWithin(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === "" ||
    (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/**
 * The real path of `path`, or, when it does not exist yet, the real path of its
 * nearest existing parent joined with the rest. Falls back to the lexical path
 * when nothing can be resolved (for example without read permission).
 */
export async function realPathOrNearest(path: string): Promise<string> {
  let existing = path;
  const rest: string[] = [];
  while (true) {
    // Ask first: without a grant, Deno.realPath would prompt on a terminal.
    const { state } = await runtime.permissions.query({
      name: "read",
      path: existing,
    });
    if (state !== "granted") return path;
    try {
      const real = await runtime.realPath(existing);
      return rest.length === 0 ? real : resolve(real, ...rest.reverse());
    } catch (error) {
      if (!isError(error, "notFound")) return path;
      const parent = dirname(existing);
      if (parent === existing) return path;
      rest.push(existing.slice(parent.length).replace(/^[/\\]+/, ""));
      existing = parent;
    }
  }
}

/** What splits a path into names: on POSIX a backslash is part of a name. */
const SEPARATORS = sep === "/" ? "/" : /[\\/]/;

/**
 * Where the OS really goes for an absolute `path` as written, `..` and all:
 * a symlink is followed before the `..` after it, so `<ws>/link/..` is the
 * parent of the link's target, not `<ws>`. Deno drops `..` lexically before
 * it opens a path (and before Deno.realPath, under a narrow --allow-read),
 * but a subprocess given the path (ripgrep) goes the OS's way. A missing
 * part, or one Deno denies reading, ends as in {@linkcode realPathOrNearest};
 * a `..` below a folder Deno denies reading stops there, with that folder:
 * where it leads cannot be known, and the caller's grant check names it.
 */
export async function physicalPath(path: string): Promise<string> {
  const { root } = parse(path);
  const names = path.slice(root.length).split(SEPARATORS);
  const up = names.indexOf("..");
  if (up === -1) return await realPathOrNearest(resolve(path));
  const before = resolve(root, ...names.slice(0, up));
  const { state } = await runtime.permissions.query({
    name: "read",
    path: before,
  });
  if (state !== "granted") return before;
  // `before` holds no `..`, so its real path is exact, and a real path's
  // parent is where `..` leads.
  const parent = dirname(await realPathOrNearest(before));
  return await physicalPath([parent, ...names.slice(up + 1)].join(sep));
}
