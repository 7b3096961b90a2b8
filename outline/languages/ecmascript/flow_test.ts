// Flow-typed scripts: a .js file marked @flow is outlined with its types,
// under the JavaScript name.
import { deepStrictEqual, equal } from "node:assert/strict";
import {
  outlineFile,
  outlineLines,
} from "../../../tests/support/outline_languages.ts";

Deno.test("outlineSymbols() outlines a Flow-typed script with its types, as JavaScript", async () => {
  const { language, symbols } = await outlineFile(
    "button.js",
    [
      "/**",
      " * @flow strict",
      " */",
      "import * as React from 'react';",
      "",
      "export type Props = {",
      "  title: string,",
      "  onPress?: ?(event: PressEvent) => void,",
      "};",
      "",
      "/** A button. */",
      "export function Button(props: Props): React.Node {",
      "  return <button onClick={props.onPress}>{props.title}</button>;",
      "}",
      "",
      "export default class Counter extends React.Component<Props> {",
      "  state: {count: number} = {count: 0};",
      "  increment(): void {}",
      "}",
    ].join("\n"),
  );
  equal(language, "JavaScript");
  deepStrictEqual(outlineLines(symbols), [
    "import react 4-4",
    "type Props 6-9",
    "    property title 7-7",
    "    property onPress 8-8",
    "function Button 12-14 // A button.",
    "class Counter 16-19",
    "    property state 17-17",
    "    method increment 18-18",
  ]);
});
