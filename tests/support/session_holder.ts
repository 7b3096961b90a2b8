// A child process that holds, removes and saves one session file on command,
// for tests of the session lock across processes.

const SESSION_FILE = new URL("../../agent/session_file.ts", import.meta.url)
  .href;
const LOCK_GATE = new URL("./lock_gate.ts", import.meta.url).href;

// A process that holds, removes and saves the session file named by its
// argument, one command per stdin line, answering each with one stdout line.
const HOLDER = `
import { holdSession, removeSession, saveSession } from "${SESSION_FILE}";
import { gateFailedLock } from "${LOCK_GATE}";
const path = Deno.args[0];
let lock;
let held;
let gate;
const answer = (text) => Deno.stdout.write(new TextEncoder().encode(text + "\\n"));
async function run(line) {
  const [command, arg] = line.split(" ");
  try {
    if (command === "hold") {
      lock = await holdSession(path, { attempts: Number(arg) });
      return "held";
    }
    // As "hold", but answers "waiting" as soon as an attempt has failed; the
    // next attempt waits for "go", which answers how the hold ended. So a
    // step of another process lands between two attempts, however loaded
    // the machine (a sleep cannot promise that).
    if (command === "hold-gated") {
      gate = gateFailedLock();
      held = holdSession(path, { attempts: Number(arg) }).then(
        (file) => ((lock = file), "held"),
        (error) => "error " + error.message,
      );
      return await Promise.race([gate.reached.then(() => "waiting"), held]);
    }
    if (command === "go") {
      gate.go();
      return await held;
    }
    if (command === "remove") {
      return "removed " + await removeSession(path, { attempts: Number(arg) });
    }
    if (command === "save") {
      // arg turns, each a request "turn N" and its answer.
      const messages = Array.from({ length: Number(arg) || 0 }, (_, i) => [
        { role: "user", content: "turn " + (i + 1) },
        { role: "assistant", content: [{ type: "text", text: "done " + (i + 1) }] },
      ]).flat();
      await saveSession(path, { cwd: Deno.cwd(), model: "m", messages });
      return "saved";
    }
    // What removeSession() does while it holds the file: lock file first.
    if (command === "unlink-close") {
      await Deno.remove(path + ".lock");
      lock.close();
      return "unlinked";
    }
    // removeSession()'s first step under the lock: the session file.
    if (command === "drop") {
      await Deno.remove(path);
      return "dropped";
    }
    if (command === "close") {
      lock.close();
      return "closed";
    }
  } catch (error) {
    return "error " + error.message;
  }
  return "unknown " + command;
}
let buffered = "";
for await (const chunk of Deno.stdin.readable.pipeThrough(new TextDecoderStream())) {
  buffered += chunk;
  let end;
  while ((end = buffered.indexOf("\\n")) !== -1) {
    const line = buffered.slice(0, end);
    buffered = buffered.slice(end + 1);
    run(line).then(answer);
  }
}
`;

/** A child process driving one session file, command by command. */
export class Holder implements AsyncDisposable {
  #child: Deno.ChildProcess;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #lines: AsyncIterator<string>;

  constructor(path: string) {
    this.#child = new Deno.Command(Deno.execPath(), {
      args: ["eval", "--ext=js", HOLDER, path],
      stdin: "piped",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    this.#writer = this.#child.stdin.getWriter();
    this.#lines = lines(this.#child.stdout);
  }

  /** Sends a command; the promise is its answer. */
  async send(command: string): Promise<string> {
    await this.#writer.write(new TextEncoder().encode(`${command}\n`));
    const { value } = await this.#lines.next();
    return value ?? "(exited)";
  }

  /** Ends its stdin and waits for the process to exit. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.#writer.close().catch(() => {});
    await this.#child.status;
    await this.#lines.return?.();
  }
}

async function* lines(
  stream: ReadableStream<Uint8Array>,
): AsyncGenerator<string> {
  let buffered = "";
  for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
    buffered += chunk;
    let end;
    while ((end = buffered.indexOf("\n")) !== -1) {
      yield buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
    }
  }
}
