// A worker for the thread tests: answers each message through the thread
// port, or fails or ends itself (Deno.exit(code), close()) as asked.
import { threadPort } from "../../internal/thread_port.ts";

const port = await threadPort();
port.onMessage((data) => {
  const request = data as {
    text?: string;
    buffer?: ArrayBuffer;
    fail?: true;
    exit?: number;
    close?: true;
  };
  if (request.exit !== undefined) Deno.exit(request.exit);
  if (request.close) {
    (globalThis as unknown as { close(): void }).close();
    return;
  }
  if (request.fail) {
    setTimeout(() => {
      throw new Error("echo worker failed on request");
    });
    return;
  }
  const buffer = request.buffer ?? new ArrayBuffer(0);
  port.post({ text: request.text, bytes: buffer.byteLength }, [buffer]);
});
