// The "outline" command: prints the outline of files, or of every supported
// file under a folder (skipping .git, node_modules and .gitignore'd paths),
// outlined in parallel by the worker pool and printed in path order.
import { join, relative, resolve } from "node:path";
import { fileOutline, outlineSymbols } from "../outline/outline.ts";
import { OMIT_GRAMMARS_DIR_OPTION } from "../outline/outliner.ts";
import {
  SUPPORTED_EXTENSIONS,
  supportedExtension,
} from "../outline/supported.ts";
import { walkFiles } from "../tools/search/walk.ts";
import { requireDenoPermission } from "../internal/deno_permission.ts";
import { isError, runtime } from "../internal/runtime/runtime.ts";
import { writeAll } from "./_render.ts";
import type { FileInfo } from "../internal/runtime/runtime.ts";

const USAGE = `Usage: fello outline [options] <path>...

Prints the symbols of source files (functions, classes, members...) with line
ranges and doc summaries. A folder outlines every supported file under it,
skipping .git, node_modules and what .gitignore ignores.

Options:
  --json               print the structured results (an object for one file, else an array)
  --max-symbols <n>    list at most n symbols per file (n at least 1)
  --grammars-dir <dir> load tree-sitter-<language>.wasm files from dir (or set FELLO_GRAMMARS_DIR)
  -h, --help           show this help

Supported extensions: ${SUPPORTED_EXTENSIONS.join(" ")}

Exit codes: 0 every path outlined; 1 some path could not be (missing,
unreadable, an unsupported file, or a folder with no supported file: each is
named on stderr, the others are still printed); 2 bad usage.`;

interface Options {
  help: boolean;
  json: boolean;
  maxSymbols?: number;
  grammarsDir?: string;
  paths: string[];
}

/** Runs the "outline" command and resolves to the exit code. */
export async function main(args: string[]): Promise<number> {
  const options = _parse(args);
  if (typeof options === "string") {
    console.error(options);
    return 2;
  }
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  if (options.paths.length === 0) {
    // `fello outline $DIR` with an empty variable must not pass for a success.
    console.error(`fello outline: no path given\n\n${USAGE}`);
    return 2;
  }
  const { files, failures } = await _collect(options.paths);
  for (const failure of failures) {
    console.error(`fello outline: ${failure.message}`);
  }
  try {
    const ok = await _outlineAll(files, failures, options);
    return ok && failures.length === 0 ? 0 : 1;
  } catch (error) {
    // The reader went away (`| head`): stop, as a program killed by SIGPIPE.
    if (error instanceof _StdoutClosed) return 141;
    throw error;
  }
}

/** Thrown by _print once stdout's reader has gone. */
class _StdoutClosed extends Error {}

// Prints a line on stdout; console.log would go on quietly after a closed
// pipe, and the outline of a big folder with it.
function _print(text: string): void {
  try {
    writeAll(runtime.stdout, `${text}\n`);
  } catch (error) {
    if (isError(error, "brokenPipe")) throw new _StdoutClosed();
    throw error;
  }
}

/** A path that could not be outlined, and why. */
interface _Failure {
  path: string;
  message: string;
}

function _parse(args: string[]): Options | string {
  const options: Options = { help: false, json: false, paths: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "-h" || arg === "--help") {
      return { help: true, json: false, paths: [] };
    }
    if (arg === "--") {
      options.paths.push(...args.slice(i + 1));
      break;
    }
    if (arg === "--json") options.json = true;
    else if (arg === "--max-symbols") {
      const value = args[++i];
      const n = Number(value);
      if (value === undefined || !Number.isInteger(n) || n < 1) {
        return `fello outline: --max-symbols needs a whole number of at least 1, ${
          value === undefined ? "got nothing" : `got "${value}"`
        }`;
      }
      options.maxSymbols = n;
    } else if (arg === "--grammars-dir") {
      if (args[i + 1] === undefined) {
        return "fello outline: --grammars-dir needs a folder";
      }
      options.grammarsDir = args[++i];
    } else if (arg.startsWith("-") && arg !== "-") {
      return `fello outline: unknown option "${arg}"; see fello outline --help`;
    } else options.paths.push(arg);
  }
  return options;
}

// Expands folders into their supported files; files named explicitly are kept
// as given so an unsupported one gets the engine's clear error.
async function _collect(
  paths: string[],
): Promise<{ files: string[]; failures: _Failure[] }> {
  const files: string[] = [];
  const failures: _Failure[] = [];
  for (const path of paths) {
    let info: FileInfo;
    try {
      info = await runtime.stat(path);
    } catch (error) {
      const problem = await _statProblem(path, error);
      if (problem === undefined) files.push(path);
      else failures.push({ path, message: problem });
      continue;
    }
    if (!info.isDirectory) {
      files.push(path);
      continue;
    }
    const root = resolve(path);
    const onUnreadable = (folder: string) => {
      const shown = join(path, relative(root, folder));
      failures.push({
        path: shown,
        message:
          `Cannot list "${shown}": it cannot be read (no permission); its files are left out`,
      });
    };
    const before = files.length;
    const failed = failures.length;
    try {
      for await (
        const file of walkFiles(root, { workspace: root, onUnreadable })
      ) {
        if (supportedExtension(file) !== undefined) {
          files.push(join(path, relative(root, file)));
        }
      }
    } catch (error) {
      failures.push({
        path,
        message: `Cannot list "${path}": ${
          error instanceof Error ? error.message : error
        }`,
      });
    }
    // A wrong folder must not look like a silent success.
    if (files.length === before && failures.length === failed) {
      failures.push({
        path,
        message:
          `found no supported file under "${path}" (.git, node_modules and .gitignore'd paths skipped); supported extensions: ${
            SUPPORTED_EXTENSIONS.join(" ")
          }`,
      });
    }
  }
  return { files, failures };
}

// Why a path named on the command line cannot be outlined, when its stat
// already says so and the engine would only judge its extension: missing, or
// not readable under Deno's grant.
async function _statProblem(
  path: string,
  error: unknown,
): Promise<string | undefined> {
  // A file of a supported kind gets the engine's own words, in its turn.
  if (supportedExtension(path) !== undefined) return undefined;
  if (isError(error, "notFound")) {
    return `Cannot outline "${path}": it does not exist; check the path`;
  }
  try {
    await requireDenoPermission({ name: "read", path: resolve(path) });
  } catch (denied) {
    return (denied as Error).message;
  }
  return undefined;
}

/**
 * Outlines in flight at once: the pool queues more, but each one opens its
 * file on this thread first, and a folder of thousands would run past the
 * open-file limit (256 by default on macOS).
 */
const IN_FLIGHT = 32;

// Starts the outlines IN_FLIGHT at a time, in path order, and prints each one
// as soon as the ones before it are printed, so output keeps the path order.
// With --json, each failure (those of `failures` first) is an entry too:
// `{ "path", "error" }`.
async function _outlineAll(
  files: string[],
  failures: _Failure[],
  options: Options,
): Promise<boolean> {
  const progress = _progress(files.length);
  const call = { grammarsDir: options.grammarsDir };
  const jobs = _limited(
    files.map((file) => () => {
      const job = options.json
        ? outlineSymbols(file, call).then((result) => ({
          path: file,
          ...result,
        }))
        : fileOutline(file, { ...call, maxSymbols: options.maxSymbols });
      const settled = job.then(
        (value) => ({ ok: true as const, value }),
        (error: unknown) => ({ ok: false as const, error }),
      );
      settled.then(progress.tick);
      return settled;
    }),
    IN_FLIGHT,
  );
  let ok = true;
  let printed = 0;
  // One file named on the command line is an object; a folder or several
  // files are an array, however many files they hold. Each result is
  // printed as it comes, in parts: one JSON text of them all outgrew V8's
  // longest string (a 46 MB Markdown file) and held everything until the end.
  const single = options.paths.length === 1 &&
    (files.length === 1 && files[0] === options.paths[0] ||
      files.length === 0 && failures.length === 1);
  const json = new _JsonOut();
  const printJson = (value: unknown) => {
    if (!single && printed === 0) json.line("[");
    else if (!single) json.comma();
    json.value(value, single ? "" : "  ");
    json.flush();
    printed++;
  };
  if (options.json) {
    for (const { path, message } of failures) {
      printJson({ path, error: message });
    }
  }
  for (const [i, job] of jobs.entries()) {
    const outcome = await job;
    progress.clear();
    if (!outcome.ok) {
      ok = false;
      const message = _explain(outcome.error, options);
      console.error(`fello outline: ${message}`);
      if (options.json) printJson({ path: files[i], error: message });
      continue;
    }
    if (options.json) {
      printJson(outcome.value);
      continue;
    }
    // A blank line between outlines, not before the first one printed
    // (an earlier file may have failed).
    const text = String(outcome.value);
    _print(printed === 0 ? text : `\n${text}`);
    printed++;
  }
  progress.clear();
  if (options.json && !single) json.line(printed === 0 ? "[]" : "]");
  json.end();
  return ok;
}

/**
 * JSON as `JSON.stringify(value, null, 2)` writes it, printed a piece at a
 * time: objects and arrays two levels deep are opened line by line, and
 * what lies deeper (one symbol with its members) is stringified alone.
 */
class _JsonOut {
  #lines: string[] = [];
  #size = 0;

  /** Prints `value` at `indent`, after `prefix` (an object's key). */
  value(value: unknown, indent: string, prefix = "", depth = 2): void {
    const open = Array.isArray(value) ? "[" : "{";
    const entries = depth === 0 || value === null || typeof value !== "object"
      ? undefined
      : Array.isArray(value)
      ? value.map((item) => ["", item] as const)
      : Object.entries(value).filter(([, item]) => item !== undefined);
    if (entries === undefined || entries.length === 0) {
      const text = JSON.stringify(value, null, 2).replaceAll(
        "\n",
        `\n${indent}`,
      );
      this.line(`${indent}${prefix}${text}`);
      return;
    }
    this.line(`${indent}${prefix}${open}`);
    for (const [i, [key, item]] of entries.entries()) {
      if (i > 0) this.comma();
      const label = Array.isArray(value) ? "" : `${JSON.stringify(key)}: `;
      this.value(item, `${indent}  `, label, depth - 1);
    }
    this.line(`${indent}${open === "[" ? "]" : "}"}`);
  }

  /** Ends the last line with a comma (a next element follows). */
  comma(): void {
    this.#lines[this.#lines.length - 1] += ",";
  }

  line(text: string): void {
    this.#lines.push(text);
    this.#size += text.length;
    if (this.#size > 64 * 1024) this.flush();
  }

  /** Prints all but the last line, to which a comma may still be added. */
  flush(): void {
    const last = this.#lines.pop();
    if (this.#lines.length > 0) _print(this.#lines.join("\n"));
    this.#lines = last === undefined ? [] : [last];
    this.#size = last?.length ?? 0;
  }

  /** Prints what is left. */
  end(): void {
    if (this.#lines.length > 0) _print(this.#lines.join("\n"));
    this.#lines = [];
    this.#size = 0;
  }
}

// A failure's message, its advice fitted to how the grammar folder was named:
// the outline suggests leaving out the grammarsDir option, which the flag
// sets, so with the flag the way back is to drop it.
function _explain(error: unknown, options: Options): string {
  const message = error instanceof Error ? error.message : String(error);
  if (options.grammarsDir === undefined) return message;
  return message.replace(OMIT_GRAMMARS_DIR_OPTION, "or drop --grammars-dir");
}

// Runs `tasks` at most `limit` at a time, in order; their promises in order.
function _limited<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T>[] {
  let running = 0;
  const waiting: (() => void)[] = [];
  return tasks.map((task) =>
    new Promise<T>((resolve, reject) => {
      const start = () => {
        running++;
        task().then(resolve, reject).finally(() => {
          running--;
          waiting.shift()?.();
        });
      };
      if (running < limit) start();
      else waiting.push(start);
    })
  );
}

// A one-line progress bar on stderr, only when it is a terminal and there is
// more than one file.
function _progress(total: number): { tick(): void; clear(): void } {
  if (total < 2 || !runtime.stderr.isTerminal()) {
    return { tick() {}, clear() {} };
  }
  const encoder = new TextEncoder();
  let done = 0;
  let shown = false;
  const draw = () => {
    const width = 30;
    const filled = Math.round((done / total) * width);
    const bar = "#".repeat(filled) + "-".repeat(width - filled);
    runtime.stderr.writeSync(
      encoder.encode(`\r[${bar}] ${done}/${total} files`),
    );
    shown = true;
  };
  return {
    tick() {
      done++;
      draw();
    },
    clear() {
      if (shown) runtime.stderr.writeSync(encoder.encode("\r\x1b[K"));
      shown = false;
    },
  };
}
