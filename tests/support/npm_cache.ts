// Files of npm packages in Deno's cache, for tests that need a real package
// file on disk (a grammar .wasm to copy into a grammar folder).

/** The path of `file` inside npm package `name@version` in Deno's npm cache. */
export async function npmCacheFile(
  name: string,
  version: string,
  file: string,
): Promise<string> {
  const info = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json"],
    stdout: "piped",
  }).output();
  const { npmCache } = JSON.parse(new TextDecoder().decode(info.stdout));
  return `${npmCache}/registry.npmjs.org/${name}/${version}/${file}`;
}
