// blankConstructorAnnotations(): what it blanks, and that it ends in linear time.
import { deepStrictEqual, ok } from "node:assert/strict";
import { blankConstructorAnnotations } from "./constructor_annotations_kotlin_1_1_0.ts";

Deno.test("blankConstructorAnnotations() blanks only annotations before a primary constructor", () => {
  deepStrictEqual(
    blankConstructorAnnotations(
      'class A\n@Inject @Named("a(b)")\ninternal constructor(x: Int)',
    ),
    `class A\n${" ".repeat(22)}\ninternal constructor(x: Int)`,
  );
  // Elsewhere annotations stay: on a function, on a secondary constructor.
  const untouched =
    "class A {\n  @Inject\n  fun f() {}\n  @Inject constructor()\n}";
  deepStrictEqual(blankConstructorAnnotations(untouched), untouched);
});

Deno.test("blankConstructorAnnotations() takes linear time on a run of annotations that fails", () => {
  const started = performance.now();
  // No constructor follows: the match fails after every annotation.
  blankConstructorAnnotations(`fun f( {\nclass A\n${"@a ".repeat(40)}x`);
  blankConstructorAnnotations(
    `class A\n${"    @A\n".repeat(40)}    fun f() {}`,
  );
  // Exponential backtracking took minutes here; a generous bound.
  ok(performance.now() - started < 5_000);
});
