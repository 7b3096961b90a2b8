// How a command is shown to people (permission prompts, errors) and what an
// "always" answer to it covers.

const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** Quotes one word for a POSIX shell, only when needed. */
export function shellQuote(word: string): string {
  if (PLAIN_WORD.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The command line as a person would type it: a shell string as is, an executable and args quoted. */
export function displayCommand(command: string, args?: string[]): string {
  if (args === undefined) return command;
  return [command, ...args].map(shellQuote).join(" ");
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
 * What an "always" answer to this command covers: the executable and its first
 * argument (`git status`). A command whose first argument is an option
 * (`git -C dir push`), a shell string with operators, substitutions or
 * redirections, and launchers such as `sh -c` or `env`, are keyed by the whole
 * command line, so approving one never approves another.
 */
export function alwaysKeyOf(command: string, args?: string[]): string {
  const words = args === undefined ? simpleWords(command) : [command, ...args];
  if (words === undefined || words.length === 0) {
    return `exact:${displayCommand(command, args)}`;
  }
  const program = words[0].slice(words[0].lastIndexOf("/") + 1);
  // After an option (`git -C dir push`, `rm -rf a`) the next word is no
  // subcommand: only the same command line is allowed again.
  if (LAUNCHERS.has(program) || words[1]?.startsWith("-")) {
    return `exact:${displayCommand(command, args)}`;
  }
  return words.slice(0, 2).join(" ");
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
