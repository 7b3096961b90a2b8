import { equal } from "node:assert/strict";
import { blankRanges, codeOnly } from "./_c_code.ts";
import { wrapperRanges } from "./_c_wrappers.ts";

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
