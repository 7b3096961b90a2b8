// How the agent's tool calls look in an editor: a title, the files involved,
// and the content (text, a diff, a terminal) of ACP tool_call updates.
import type * as acp from "@agentclientprotocol/sdk";
import { isAbsolute, resolve } from "node:path";
import { isFileUrl } from "../internal/file_url.ts";

type Input = { [key: string]: unknown };

function field(input: unknown, name: string): string | undefined {
  const value = (input as Input | null)?.[name];
  return typeof value === "string" ? value : undefined;
}

/** The absolute path a file tool's input names, if any. */
export function inputPath(input: unknown, cwd: string): string | undefined {
  const path = field(input, "path");
  if (path === undefined || path === "") return undefined;
  if (isFileUrl(path)) {
    return decodeURIComponent(new URL(path).pathname);
  }
  const base = field(input, "cwd");
  return isAbsolute(path) ? path : resolve(cwd, base ?? ".", path);
}

/** A short, human title for a tool call, e.g. `Edit src/a.ts`. */
export function toolTitle(name: string, input: unknown): string {
  const path = field(input, "path");
  switch (name) {
    case "ReadFile":
      return `Read ${path ?? "file"}`;
    case "WriteFile":
      return `Write ${path ?? "file"}`;
    case "EditFile":
      return `Edit ${path ?? "file"}`;
    case "EditSymbol":
      return `Edit ${field(input, "symbol") ?? "symbol"} in ${path ?? "file"}`;
    case "Shell": {
      const args = (input as Input | null)?.args;
      const command = [
        field(input, "command") ?? "",
        ...(Array.isArray(args) ? args : []),
      ]
        .join(" ");
      return `Run ${
        command.length > 80 ? `${command.slice(0, 77)}...` : command
      }`;
    }
    case "Plan":
      return "Update the plan";
    case "search":
      return `Search ${JSON.stringify(field(input, "pattern") ?? "")}${
        path ? ` in ${path}` : ""
      }`;
    case "file_outline":
      return `Outline ${path ?? "file"}`;
    case "ImageAnalysis":
      return `Look at ${path ?? "image"}`;
    case "Subagent":
      return "Run subagents";
    default:
      return name;
  }
}

/** The files a tool call touches, for the editor to follow. */
export function toolLocations(
  name: string,
  input: unknown,
  cwd: string,
): acp.ToolCallLocation[] {
  const path = inputPath(input, cwd);
  if (path === undefined) return [];
  const line = (input as Input | null)?.line;
  return name === "ReadFile" && typeof line === "number"
    ? [{ path, line }]
    : [{ path }];
}

/** The diff an edit proposes, from its input (before it runs). */
export function proposedDiff(
  name: string,
  input: unknown,
  cwd: string,
): acp.ToolCallContent | undefined {
  const path = inputPath(input, cwd);
  if (path === undefined) return undefined;
  if (name === "EditFile") {
    const oldText = field(input, "oldText");
    const newText = field(input, "newText");
    if (oldText === undefined || newText === undefined) return undefined;
    return { type: "diff", path, oldText, newText };
  }
  if (name === "WriteFile") {
    const newText = field(input, "content");
    if (newText === undefined) return undefined;
    return { type: "diff", path, oldText: null, newText };
  }
  return undefined;
}

/** Text content for a tool call, cut so one update stays a reasonable size. */
export function textContent(text: string): acp.ToolCallContent {
  const limit = 20_000;
  const shown = text.length > limit
    ? `${text.slice(0, limit)}\n[... ${text.length - limit} more characters]`
    : text;
  return { type: "content", content: { type: "text", text: shown } };
}

/** The prompt's content blocks as the text the agent receives. */
export function promptText(blocks: acp.ContentBlock[]): string {
  return blocks.map((block) => {
    switch (block.type) {
      case "text":
        return block.text;
      case "resource_link":
        return `[${block.name}](${block.uri})`;
      case "resource": {
        const resource = block.resource as { uri: string; text?: string };
        return resource.text === undefined
          ? `[${resource.uri}]`
          : `<context uri="${resource.uri}">\n${resource.text}\n</context>`;
      }
      default:
        return `[${block.type} content is not supported]`;
    }
  }).join("\n");
}
