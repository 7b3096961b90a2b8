// Helpers for tests that drive the tools through the public API.
import assert from "node:assert/strict";
import { ToolError } from "../../mod.ts";
import type { PermissionAnswer, PermissionRequest } from "../../mod.ts";

/** An approver that records every request and answers `answer`. */
export function recorder(answer: PermissionAnswer): {
  calls: PermissionRequest[];
  approve: (request: PermissionRequest) => Promise<PermissionAnswer>;
} {
  const calls: PermissionRequest[] = [];
  return {
    calls,
    approve: (request) => {
      calls.push(request);
      return Promise.resolve(answer);
    },
  };
}

/** Awaits `promise`, asserting that it rejects with a ToolError mentioning every needle. */
export async function rejectsTool(
  promise: Promise<unknown>,
  ...needles: (string | RegExp)[]
): Promise<ToolError> {
  let error: unknown;
  try {
    await promise;
  } catch (caught) {
    error = caught;
  }
  assert.ok(error !== undefined, "expected a ToolError, but the call resolved");
  assert.ok(error instanceof ToolError, `expected a ToolError, got ${error}`);
  for (const needle of needles) {
    if (typeof needle === "string") {
      assert.ok(
        error.message.includes(needle),
        `message lacks ${JSON.stringify(needle)}: ${error.message}`,
      );
    } else {
      assert.match(error.message, needle);
    }
  }
  return error;
}

/**
 * An approver that records every request and gives `answers` in turn, then
 * `false` to every later request.
 */
export function answering(...answers: PermissionAnswer[]): {
  calls: PermissionRequest[];
  approve: (request: PermissionRequest) => PermissionAnswer;
} {
  const calls: PermissionRequest[] = [];
  return {
    calls,
    approve: (request) => {
      calls.push(request);
      return answers[calls.length - 1] ?? false;
    },
  };
}

/** Awaits `promise`, asserting that it rejects with a ToolError; resolves to its message. */
export async function toolErrorMessage(
  promise: Promise<unknown>,
): Promise<string> {
  return (await rejectsTool(promise)).message;
}

/**
 * An approver that replaces `file` with a symlink to `target` and then
 * answers yes: the swap an attacker makes while the user reads the question.
 */
export function swapThenApprove(
  file: string,
  target: string,
): () => Promise<boolean> {
  return async () => {
    await Deno.remove(file);
    await Deno.symlink(target, file);
    return true;
  };
}
