// A worker for internal/thread_test.ts: answers each message through the
// thread port, or fails as asked.
import { threadPort } from "../../internal/thread_port.ts";

const port = await threadPort();
port.onMessage((data) => {
  const request = data as { text?: string; buffer?: ArrayBuffer; fail?: true };
  if (request.fail) {
    setTimeout(() => {
      throw new Error("echo worker failed on request");
    });
    return;
  }
  const buffer = request.buffer ?? new ArrayBuffer(0);
  port.post({ text: request.text, bytes: buffer.byteLength }, [buffer]);
});
