// Run by internal/thread_test.ts: starts a thread of the kind in Deno.args[0],
// has it answer once, then leaves it idle, unref'd or (with "ref") not. The
// process should end on its own only when it is unref'd.
import { startThread, type ThreadKind } from "../../internal/thread.ts";

const [kind, ref] = Deno.args as [ThreadKind, string | undefined];
const thread = startThread(new URL("./echo_thread.ts", import.meta.url), {
  message(data) {
    console.log(JSON.stringify(data));
    if (ref === "ref") thread.ref();
    else thread.unref();
  },
  error(error) {
    console.error(error);
    Deno.exit(1);
  },
}, kind);
thread.ref();
thread.post({ text: "hello" }, []);
