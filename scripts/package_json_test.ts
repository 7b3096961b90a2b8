// The checkout's package.json (for Bun: `bun install`) pins what deno.json's
// imports pin: every dependency at the exact version deno.json imports, and
// every npm package deno.json imports among the dependencies, so Bun and Deno
// run the same code.
import assert from "node:assert/strict";
import denoJson from "../deno.json" with { type: "json" };
import packageJson from "../package.json" with { type: "json" };

/** deno.json's npm imports as name -> version (`"a/": "npm:/a@1/"` too). */
function denoVersions(): Map<string, string> {
  const versions = new Map<string, string>();
  for (const [key, specifier] of Object.entries(denoJson.imports)) {
    const match = /^npm:\/?((?:@[^/@]+\/)?[^/@]+)@([^/]+)\/?$/.exec(specifier);
    assert.ok(match, `deno.json imports "${key}" from "${specifier}"`);
    const [, name, version] = match;
    assert.equal(name, key.replace(/\/$/, ""), `"${key}" imports ${name}`);
    const seen = versions.get(name);
    assert.ok(
      seen === undefined || seen === version,
      `deno.json imports ${name} at ${seen} and at ${version}`,
    );
    versions.set(name, version);
  }
  return versions;
}

Deno.test("package.json pins each dependency at the version deno.json imports", () => {
  const versions = denoVersions();
  for (const [name, version] of Object.entries(packageJson.dependencies)) {
    assert.equal(
      version,
      versions.get(name),
      `package.json has ${name}@${version}; deno.json imports ${name}@${
        versions.get(name) ?? "(nothing)"
      }`,
    );
  }
});

Deno.test("package.json depends on every npm package deno.json imports", () => {
  const dependencies: Record<string, string> = packageJson.dependencies;
  for (const [name, version] of denoVersions()) {
    assert.equal(
      dependencies[name],
      version,
      `deno.json imports ${name}@${version}; add "${name}": "${version}" to package.json's dependencies`,
    );
  }
});
