// wrapperRanges() and trailingAttributeRanges(): the wrappers and attributes they blank.
import { equal } from "node:assert/strict";
import { blankRanges, codeOnly } from "../c_code.ts";
import {
  trailingAttributeRanges,
  wrapperRanges,
} from "./portability_wrappers_c_0_24_1.ts";

function unwrapped(text: string): string {
  return blankRanges(text, wrapperRanges(codeOnly(text)));
}

Deno.test("wrapperRanges() unwraps the parameter lists of pre-ANSI headers", () => {
  equal(
    unwrapped("ZEXTERN int ZEXPORT deflate OF((z_streamp strm, int flush));\n"),
    "ZEXTERN int ZEXPORT deflate    (z_streamp strm, int flush) ;\n",
  );
  equal(
    unwrapped(
      "EXTERN(void) jpeg_std_error JPP((struct jpeg_error_mgr * err));",
    ),
    "       void  jpeg_std_error     (struct jpeg_error_mgr * err) ;",
  );
});

Deno.test("wrapperRanges() unwraps return types in export macros", () => {
  equal(
    unwrapped("extern GCC_NORETURN NCURSES_EXPORT(void) _nc_warning (int);\n"),
    "extern GCC_NORETURN                void  _nc_warning (int);\n",
  );
  equal(
    unwrapped("NCURSES_EXPORT(const char *) _nc_get_source (void);\n"),
    "               const char *  _nc_get_source (void);\n",
  );
});

Deno.test("wrapperRanges() keeps calls, casts and macros that are not wrappers", () => {
  const kept = [
    "int x = MAX((a), (b));\n",
    "void f(void) { CHECK((x)) && g(); }\n",
    "DECLARE_HANDLE(name, (int));\n",
    "#define OF(args) args\n",
    "/* deflate OF((z_streamp strm)); */\n",
    'const char *s = "FOO(int) bar (x);";\n',
    "int y = SIZE(int) * count (n);\n",
  ];
  for (const text of kept) equal(unwrapped(text), text, text);
});

Deno.test("trailingAttributeRanges() blanks lower-case attributes after a prototype, not K&R or statements", () => {
  const blanked = (text: string) =>
    blankRanges(text, trailingAttributeRanges(codeOnly(text)));
  equal(
    blanked("int f(lzma_stream *s) lzma_nothrow lzma_attr_pure;\n"),
    "int f(lzma_stream *s)                            ;\n",
  );
  const kept = [
    "int f(a, b) int a; int b; { return a; }\n",
    "int f(a) uLong a; { return 0; }\n",
    "void g(void) { if (x) return; while (y) continue; }\n",
    "extern int socket (int d) __THROW;\n",
  ];
  for (const text of kept) equal(blanked(text), text, text);
});
