// Permission rules: `Tool(pattern)` lines that allow or deny tool calls
// before the permission mode is consulted. A deny rule wins over everything;
// an allow rule answers yes without asking, in every mode.
import { isAbsolute, join, relative, sep } from "node:path";
import { isWithin } from "../internal/paths.ts";
import { runtime } from "../internal/runtime/runtime.ts";
import type { PermissionRequest } from "./types.ts";

/**
 * Rules that decide tool calls before the permission mode does, each written
 * `Tool` (every call of the tool) or `Tool(pattern)`: `Shell(git status*)`,
 * `EditFile(src/**)`, `ReadFile(~/.ssh/**)`, `mcp__github__create_issue`.
 * A Shell pattern matches the command line (`*` is any text); a file tool's
 * pattern matches the path (relative to the workspace, `~/` or absolute;
 * `*` within a name, `**` across folders). A tool name may hold `*` too.
 *
 * A matching `deny` rule refuses the call, whatever the mode and any allow
 * rule; a matching `allow` rule lets it run unasked, in every mode. A Shell
 * command joined with `;`, `&&`, `||`, `|` or `&` is denied when any part
 * is, and allowed only when each part is allowed and it holds no `$(`, back
 * quote or redirection.
 *
 * A type only: needs no permission.
 *
 * @example Let git status run unasked, never rm
 * ```ts
 * import { createTools, type PermissionRules } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const permissions: PermissionRules = { allow: ["Shell(echo *)"], deny: ["Shell(rm *)"] };
 * const tools = createTools({ cwd: await Deno.makeTempDir(), permissionMode: "ask", permissions });
 * assert.equal((await tools.Shell.execute({ command: "echo hi" })).exitCode, 0);
 * await assert.rejects(tools.Shell.execute({ command: "rm -r x" }), /deny rule "Shell\(rm \*\)"/);
 * ```
 */
export interface PermissionRules {
  /** Rules whose calls run without asking. */
  allow?: readonly string[];
  /** Rules whose calls are refused. */
  deny?: readonly string[];
}

/** One parsed rule. */
interface Rule {
  text: string;
  tool: RegExp;
  /** Undefined for a rule without a pattern: every call of the tool. */
  pattern?: string;
}

const RULE = /^([A-Za-z0-9_*-]+)(?:\((.*)\))?$/s;

/**
 * Checks one rule's spelling; returns what is wrong, or undefined when it is
 * a rule.
 */
export function permissionRuleProblem(text: unknown): string | undefined {
  if (typeof text !== "string") return "a rule is a string like Shell(git *)";
  if (!RULE.test(text.trim())) {
    return `"${text}" is not a rule: write Tool or Tool(pattern), e.g. Shell(git status*) or EditFile(src/**)`;
  }
  return undefined;
}

/** The decision rules make about a request, with the rule that made it. */
export type RuleDecision = { verdict: "allow" | "deny"; rule: string };

/** Parsed permission rules, matched against requests of one workspace. */
export class PermissionRuleSet {
  #allow: Rule[];
  #deny: Rule[];
  #workspace: string;

  /** Throws a TypeError naming a rule that does not parse. */
  constructor(rules: PermissionRules, workspace: string) {
    this.#allow = (rules.allow ?? []).map(parse);
    this.#deny = (rules.deny ?? []).map(parse);
    this.#workspace = workspace;
  }

  /** Whether there is no rule at all. */
  get empty(): boolean {
    return this.#allow.length === 0 && this.#deny.length === 0;
  }

  /** What the rules say about `request`; undefined when none matches. */
  decide(request: PermissionRequest): RuleDecision | undefined {
    if (request.action === "execute" && request.command !== undefined) {
      return this.#decideCommand(request.tool, request.command);
    }
    const matches = (rule: Rule) =>
      rule.tool.test(request.tool) &&
      (rule.pattern === undefined ||
        (request.path !== undefined &&
          this.#pathMatches(rule.pattern, request.path)));
    const denied = this.#deny.find(matches);
    if (denied) return { verdict: "deny", rule: denied.text };
    const allowed = this.#allow.find(matches);
    if (allowed) return { verdict: "allow", rule: allowed.text };
    return undefined;
  }

  // Denied when the whole line or any part matches a deny rule; allowed when
  // every part matches an allow rule (not necessarily the same one).
  #decideCommand(tool: string, command: string): RuleDecision | undefined {
    const whole = command.trim();
    const parts = whole.split(OPERATORS).map((part) => part.trim())
      .filter((part) => part !== "");
    const matches = (rule: Rule, text: string) =>
      rule.tool.test(tool) &&
      (rule.pattern === undefined || commandGlob(rule.pattern).test(text));
    const denied = this.#deny.find((rule) =>
      [whole, ...parts].some((text) => matches(rule, text))
    );
    if (denied) return { verdict: "deny", rule: denied.text };
    if (UNCHECKABLE.test(whole) || parts.length === 0) return undefined;
    const allowing = parts.map((part) =>
      this.#allow.find((rule) => matches(rule, part))
    );
    if (allowing.some((rule) => rule === undefined)) return undefined;
    return { verdict: "allow", rule: allowing[0]!.text };
  }

  #pathMatches(pattern: string, path: string): boolean {
    const home = homeFolder();
    let absolute: string | undefined;
    if (pattern === "~" || pattern.startsWith("~/")) {
      if (home === undefined) return false;
      absolute = join(home, pattern.slice(1));
    } else if (isAbsolute(pattern)) {
      absolute = pattern;
    }
    if (absolute !== undefined) return pathGlob(absolute).test(slashes(path));
    if (!isWithin(this.#workspace, path)) return false;
    const inside = slashes(relative(this.#workspace, path)) || ".";
    return pathGlob(pattern).test(inside);
  }
}

function parse(text: string): Rule {
  const problem = permissionRuleProblem(text);
  if (problem) throw new TypeError(`Cannot use permission rule: ${problem}`);
  const [, tool, pattern] = text.trim().match(RULE)!;
  return {
    text: text.trim(),
    tool: new RegExp(`^${tool.split("*").map(escape).join(".*")}$`),
    pattern: pattern?.trim() === "" ? undefined : pattern?.trim(),
  };
}

/** Splits a command line at its control operators. */
const OPERATORS = /&&|\|\||[;|&\n]/;
/** What an allow rule cannot vouch for: substitutions and redirections. */
const UNCHECKABLE = /\$\(|`|[<>]/;

/** A command pattern as a regex: `*` is any text. */
function commandGlob(pattern: string): RegExp {
  return new RegExp(`^${pattern.split("*").map(escape).join(".*")}$`, "s");
}

/** A path glob as a regex: `**` across folders, `*` and `?` within a name. */
function pathGlob(pattern: string): RegExp {
  let source = "";
  const text = slashes(pattern).replace(/\/+$/, "");
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === "*" && text[i + 1] === "*") {
      // `a/**` also matches `a` itself; `**/b` matches `b` at any depth.
      if (text[i + 2] === "/") {
        source += "(?:.*/)?";
        i += 2;
      } else if (source.endsWith("/")) {
        source = `${source.slice(0, -1)}(?:/.*)?`;
        i += 1;
      } else {
        source += ".*";
        i += 1;
      }
    } else if (char === "*") source += "[^/]*";
    else if (char === "?") source += "[^/]";
    else source += escape(char);
  }
  return new RegExp(`^${source}$`, "s");
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function slashes(path: string): string {
  return sep === "/" ? path : path.split(sep).join("/");
}

function homeFolder(): string | undefined {
  try {
    return runtime.env.get("HOME") || runtime.env.get("USERPROFILE") ||
      undefined;
  } catch {
    return undefined;
  }
}
