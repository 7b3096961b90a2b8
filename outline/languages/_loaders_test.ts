// loadLanguageSpec(): the worker's lazy loaders give the registry's specs.
import assert from "node:assert/strict";
import { type LanguageId, loadLanguageSpec } from "./_loaders.ts";
import {
  FLOW_KEY,
  languageForExtension,
  languageId,
  LANGUAGES,
  OBJC_KEY,
} from "./_registry.ts";

Deno.test("the worker loads by its id the same spec the registry has for each language", async () => {
  const specs = [
    ...LANGUAGES,
    languageForExtension(FLOW_KEY)!,
    languageForExtension(OBJC_KEY)!,
  ];
  const ids = specs.map(languageId);
  assert.equal(new Set(ids).size, specs.length, `ids: ${ids.join(", ")}`);
  for (const [i, spec] of specs.entries()) {
    assert.equal(await loadLanguageSpec(ids[i] as LanguageId), spec, ids[i]);
  }
  assert.equal(languageId(languageForExtension(".tsx")!), "tsx");
  assert.equal(languageId(languageForExtension(".hpp")!), "cpp");
});
