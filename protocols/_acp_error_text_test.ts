// describeError(): the text an editor is shown for an error.
import assert from "node:assert/strict";
import { describeError } from "./_acp_error_text.ts";

Deno.test("describeError() uses the embedder's wording, else the message", () => {
  const error = new Error("Cannot reach the model endpoint");
  assert.equal(describeError(error, {}), "Cannot reach the model endpoint");
  assert.equal(
    describeError(error, { describeError: (e) => `${e.message}; set it` }),
    "Cannot reach the model endpoint; set it",
  );
  assert.equal(describeError("plain", {}), "plain");
});

Deno.test("describeError() falls back to the message when the wording throws", () => {
  const error = new Error("the failure");
  const faulty = () => {
    throw new Error("oops");
  };
  assert.equal(describeError(error, { describeError: faulty }), "the failure");
});
