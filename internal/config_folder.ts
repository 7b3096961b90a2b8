// The user's configuration folder for fello, where the user's config.json and
// AGENTS.md live: $XDG_CONFIG_HOME/fello, else ~/.config/fello.
import { join } from "node:path";
import { runtime } from "./runtime/runtime.ts";

/**
 * The folder of the user's own fello settings: `$XDG_CONFIG_HOME/fello`,
 * else `~/.config/fello` (`%APPDATA%\fello` on Windows); undefined when no
 * variable names one or `--allow-env` is missing.
 */
export function userConfigFolder(): string | undefined {
  const env = (name: string) => {
    try {
      return runtime.env.get(name) || undefined;
    } catch {
      return undefined;
    }
  };
  const xdg = env("XDG_CONFIG_HOME");
  if (xdg) return join(xdg, "fello");
  const appData = env("APPDATA");
  if (appData && runtime.build.os === "windows") return join(appData, "fello");
  const home = env("HOME") ?? env("USERPROFILE");
  return home ? join(home, ".config", "fello") : undefined;
}

/** `path` with the home folder written `~`, for messages. */
export function tildePath(path: string): string {
  let home: string | undefined;
  try {
    home = runtime.env.get("HOME") || undefined;
  } catch {
    home = undefined;
  }
  if (home && (path === home || path.startsWith(`${home}/`))) {
    return `~${path.slice(home.length)}`;
  }
  return path;
}
