// How a command is shown to people (permission prompts, errors) and what an
// "always" answer to it covers.

const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** Quotes one word for a POSIX shell, only when needed. */
export function shellQuote(word: string): string {
  return PLAIN_WORD.test(word) ? word : quoted(word);
}

function quoted(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The command line as a person would type it: a shell string as is, an executable and args quoted. */
export function displayCommand(command: string, args?: string[]): string {
  if (args === undefined) return command;
  // A program named "X=1" shown bare would read as an assignment: the line
  // would seem to run its first argument.
  const program = command.includes("=") ? quoted(command) : shellQuote(command);
  return [program, ...args.map(shellQuote)].join(" ");
}

/** A command's variables as a person would type them: `CI=1 PATH='/a b'`, by name. */
export function displayEnv(env: Record<string, string>): string {
  return sortedEnv(env).map(([name, value]) =>
    `${shellQuote(name)}=${shellQuote(value)}`
  ).join(" ");
}

function sortedEnv(env: Record<string, string>): [string, string][] {
  return Object.entries(env).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0);
}

// Programs that run other programs or code: their first argument says
// nothing about what runs, so "always" covers only the exact command line.
const LAUNCHERS = new Set([
  "sh",
  "bash",
  "dash",
  "zsh",
  "fish",
  "ksh",
  "env",
  "sudo",
  "doas",
  "xargs",
  "nohup",
  "timeout",
  "nice",
  "exec",
  "eval",
  "command",
  "time",
  "watch",
  "find",
  "node",
  "deno",
  "bun",
  "python",
  "python3",
  "perl",
  "ruby",
  "php",
]);

/**
 * What an "always" answer to this command covers, as a JSON key: the
 * executable and its first argument (`git status`), with the same `env`. A
 * command whose first argument is an option (`git -C dir push`), a shell
 * string with operators, substitutions or redirections, and launchers such
 * as `sh -c` or `env`, are keyed by the exact command (string, or executable
 * and args), so approving one never approves another. Variables are part of
 * every key: `PATH`, `LD_PRELOAD` or `GIT_CONFIG_*` change what a command
 * runs, so "always" for a command never covers it with other variables.
 */
export function alwaysKeyOf(
  command: string,
  args?: string[],
  env?: Record<string, string>,
): string {
  const variables = env === undefined || Object.keys(env).length === 0
    ? null
    : sortedEnv(env);
  return JSON.stringify({ ...coveredCommand(command, args), env: variables });
}

// Structured, so that no spelling of one command (an executable named
// "exact:sh", a word with a space in it) reads as another's key.
function coveredCommand(
  command: string,
  args?: string[],
): { prefix: string[] } | { exact: string; args: string[] | null } {
  const words = args === undefined ? simpleWords(command) : [command, ...args];
  const exact = { exact: command, args: args ?? null };
  if (words === undefined || words.length === 0) return exact;
  const program = words[0].slice(words[0].lastIndexOf("/") + 1);
  // After an option (`git -C dir push`, `rm -rf a`) the next word is no
  // subcommand: only the same command line is allowed again.
  if (LAUNCHERS.has(program) || words[1]?.startsWith("-")) return exact;
  // The same two words, from a shell string or from args, run the same way:
  // a shell string gets here only when it is plain words.
  return { prefix: words.slice(0, 2) };
}

// The words of a shell string made only of plain words and spaces, or
// undefined when the shell would interpret anything in it.
function simpleWords(command: string): string[] | undefined {
  const words = command.trim().split(/[ \t]+/);
  if (words[0].includes("=")) return undefined; // FOO=1 cmd: an assignment, not a program
  return words.every((word) => PLAIN_WORD.test(word)) ? words : undefined;
}

/** The most of a command line a message repeats. */
const SHOWN_COMMAND_CHARS = 200;

/**
 * A command line as messages show it: a long one (a heredoc of a whole file)
 * is cut, with its length, so an error does not repeat 200 KB of it.
 */
export function shownCommand(line: string): string {
  if (line.length <= SHOWN_COMMAND_CHARS) return line;
  return `${line.slice(0, SHOWN_COMMAND_CHARS)}… (${line.length} characters)`;
}
