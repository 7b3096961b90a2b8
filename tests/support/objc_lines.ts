// The Objective-C header outline and the plain C outline of a text, as
// outline lines, for tests that compare the two.
import { c } from "../../outline/languages/c_family/c.ts";
import { objc } from "../../outline/languages/c_family/objc.ts";
import { extractText, outlineLines } from "./outline_languages.ts";

/** The Objective-C outline of `text`, as outline lines. */
export async function objcLines(text: string): Promise<string[]> {
  return outlineLines(await extractText(objc, text));
}

/**
 * The plain C outline of an Objective-C text: its first line (`@class A;`)
 * left empty so that every other line keeps its number.
 */
export async function cLines(text: string): Promise<string[]> {
  return outlineLines(await extractText(c, text.slice(text.indexOf("\n"))));
}
