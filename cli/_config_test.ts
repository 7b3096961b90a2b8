// loadConfig(): the merge order, API keys from a named variable, and a trusted
// workspace remembered in the state folder.
import assert from "node:assert/strict";
import { join } from "node:path";
import { withWorkspace, writeFiles } from "../tests/support/workspace.ts";
import { loadConfig } from "./_config.ts";

Deno.test("loadConfig() puts flags over the environment over the workspace over the user", async () => {
  await withWorkspace(async (dir) => {
    await writeFiles(dir, {
      "user/config.json": JSON.stringify({
        model: "user",
        maxSteps: 3,
        apiKeyEnv: "MY_KEY",
        permissions: { deny: ["Shell(rm *)"] },
      }),
      "ws/.fello/config.json": JSON.stringify({ model: "ws", maxSteps: 4 }),
    });
    const env = (name: string) =>
      ({ MY_KEY: "secret", FELLO_MODEL: "env" } as Record<string, string>)[
        name
      ];
    const config = await loadConfig({ "max-steps": "9" }, join(dir, "ws"), {
      userFolder: join(dir, "user"),
      env,
    });
    assert.equal(config.endpoint.model, "env");
    assert.equal(config.maxSteps, 9);
    assert.equal(config.sources.maxSteps, "--max-steps");
    assert.equal(config.endpoint.apiKey, "secret");
    assert.match(config.sources.apiKey, /^MY_KEY \(apiKeyEnv of /);
    assert.deepEqual(config.permissions, { allow: [], deny: ["Shell(rm *)"] });
    const fileOnly = await loadConfig({}, join(dir, "ws"), {
      userFolder: join(dir, "user"),
      env: () => undefined,
    });
    assert.equal(fileOnly.endpoint.model, "ws");
    assert.equal(fileOnly.sources.model, ".fello/config.json");
    assert.equal(fileOnly.endpoint.apiKey, undefined);
  });
});

Deno.test("loadConfig() remembers a workspace the user trusts, and asks no more", async () => {
  await withWorkspace(async (dir) => {
    await writeFiles(dir, {
      "ws/.fello/config.json": JSON.stringify({
        permissions: { allow: ["Shell(make *)"] },
      }),
    });
    const state = Deno.env.get("FELLO_STATE_DIR");
    Deno.env.set("FELLO_STATE_DIR", join(dir, "state"));
    try {
      const questions: string[] = [];
      const options = {
        userFolder: null,
        env: () => undefined,
        askTrust: (question: string) => {
          questions.push(question);
          return Promise.resolve(true);
        },
      };
      const first = await loadConfig({}, join(dir, "ws"), options);
      assert.deepEqual(first.permissions.allow, ["Shell(make *)"]);
      assert.equal(questions.length, 1);
      assert.match(questions[0], /allow rules Shell\(make \*\)/);
      const second = await loadConfig({}, join(dir, "ws"), options);
      assert.deepEqual(second.permissions.allow, ["Shell(make *)"]);
      assert.equal(questions.length, 1);
      const unasked = await loadConfig({}, join(dir, "ws"), {
        ...options,
        askTrust: undefined,
      });
      assert.equal(
        unasked.skipped,
        undefined,
        "remembered: no question, nothing skipped",
      );
    } finally {
      if (state === undefined) Deno.env.delete("FELLO_STATE_DIR");
      else Deno.env.set("FELLO_STATE_DIR", state);
    }
  });
});

Deno.test("loadConfig() takes sandbox as auto, off or required, with --sandbox over the files", async () => {
  await withWorkspace(async (dir) => {
    await writeFiles(dir, {
      "user/config.json": JSON.stringify({ sandbox: "off" }),
      "ws/.fello/config.json": JSON.stringify({ sandbox: "required" }),
    });
    const options = { userFolder: join(dir, "user"), env: () => undefined };
    const fromFile = await loadConfig({}, join(dir, "ws"), options);
    assert.equal(fromFile.sandbox, "required");
    assert.equal(fromFile.sources.sandbox, ".fello/config.json");
    const fromFlag = await loadConfig(
      { sandbox: "auto" },
      join(dir, "ws"),
      options,
    );
    assert.deepEqual([fromFlag.sandbox, fromFlag.sources.sandbox], [
      "auto",
      "--sandbox",
    ]);
    const none = await loadConfig({}, join(dir, "ws"), {
      ...options,
      userFolder: null,
    });
    assert.equal(none.sandbox, "required", "a stricter sandbox needs no trust");
  });
});

Deno.test("loadConfig() applies an untrusted workspace's looser sandbox only once trusted", async () => {
  await withWorkspace(async (dir) => {
    await writeFiles(dir, {
      "ws/.fello/config.json": JSON.stringify({ sandbox: "off" }),
    });
    const options = { userFolder: null, env: () => undefined };
    const untrusted = await loadConfig({}, join(dir, "ws"), options);
    assert.deepEqual([untrusted.sandbox, untrusted.sources.sandbox], [
      "auto",
      "default",
    ]);
    assert.match(untrusted.skipped ?? "", /sandbox "off"/);
    const trusted = await loadConfig(
      { "trust-workspace": true },
      join(dir, "ws"),
      options,
    );
    assert.equal(trusted.sandbox, "off");
  });
});

Deno.test("loadConfig() refuses a sandbox that is not auto, off or required, naming the file and key", async () => {
  await withWorkspace(async (dir) => {
    for (const value of [true, "sometimes"]) {
      await writeFiles(dir, {
        "user/config.json": JSON.stringify({ sandbox: value }),
      });
      await assert.rejects(
        loadConfig({}, join(dir, "ws"), {
          userFolder: join(dir, "user"),
          env: () => undefined,
        }),
        (error: Error) => {
          assert.equal(
            error.message,
            `${
              join(dir, "user/config.json")
            }: "sandbox": expected one of "auto", "off", "required", not ${
              value === true ? "true" : '"sometimes"'
            }`,
          );
          return true;
        },
      );
    }
  });
});
