// The one wrapper every tool goes through: it validates input with the tool's
// zod schema, turns any failure into a ToolError, and publishes a JSON Schema.
import { z } from "zod";
import { ToolError } from "../internal/tool_error.ts";
import type { ExecuteOptions, JsonSchema, Tool, ToolKind } from "./types.ts";
import { isError } from "../internal/runtime/runtime.ts";

/** What a tool file declares; `defineTool` turns it into a {@linkcode Tool}. */
export interface ToolDefinition<Input, Output> {
  name: string;
  kind: ToolKind;
  description: string;
  schema: z.ZodType<Input>;
  run(input: Input, options: ExecuteOptions): Promise<Output>;
  toModelText(output: Output): string;
}

/** Builds a tool whose `execute` validates first and throws only ToolError. */
export function defineTool<Input, Output>(
  definition: ToolDefinition<Input, Output>,
): Tool<Input, Output> {
  const { name, kind, description, schema } = definition;
  let inputSchema: JsonSchema | undefined;
  return {
    name,
    kind,
    description,
    get inputSchema(): JsonSchema {
      inputSchema ??= z.toJSONSchema(schema, { io: "input" }) as JsonSchema;
      return inputSchema;
    },
    async execute(input: Input, options: ExecuteOptions = {}): Promise<Output> {
      const parsed = schema.safeParse(input);
      if (!parsed.success) throw invalidInput(name, parsed.error, input);
      try {
        return await definition.run(parsed.data, options);
      } catch (error) {
        throw asToolError(name, error);
      }
    },
    toModelText: (output: Output): string => definition.toModelText(output),
  };
}

function invalidInput(
  tool: string,
  error: z.ZodError,
  input: unknown,
): ToolError {
  const problems = error.issues.slice(0, 5).map((issue) => {
    const where = issue.path.length > 0 ? `"${issue.path.join(".")}"` : "input";
    return `${where}: ${issue.message}`;
  });
  const subject = subjectOf(input);
  return new ToolError(
    `Invalid input for ${tool}: ${problems.join("; ")}; fix the arguments${
      subject === undefined ? "" : ` for ${subject}`
    } and call again`,
  );
}

// The path or command the call was about, so the error says where it failed.
function subjectOf(input: unknown): string | undefined {
  if (typeof input !== "object" || input === null) return undefined;
  const { path, command } = input as Record<string, unknown>;
  for (const value of [path, command]) {
    if (typeof value === "string" && value.length > 0 && value.length <= 200) {
      return JSON.stringify(value);
    }
  }
  return undefined;
}

/** Wraps anything thrown by a tool so only ToolError escapes. */
export function asToolError(tool: string, error: unknown): ToolError {
  if (error instanceof ToolError) return error;
  if (isError(error, "notCapable")) {
    return new ToolError(
      `${tool} is not allowed by Deno: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ToolError(`${tool} failed: ${message}`, { cause: error });
}
