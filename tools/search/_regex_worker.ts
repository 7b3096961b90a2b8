// The worker behind _regex_scanner.ts: scans the files it is sent with the
// search's regular expression, a few at once. Before matching each chunk it
// counts one step, notes the job and raises the matching flag in the shared
// progress array (lowered once the chunk is matched), so the main thread can
// tell a long file from a pattern stuck backtracking (which it ends by
// terminating this worker), name the file it was stuck on, and leave alone a
// worker waiting on a read.
import { type FileScan, scanFile } from "./_search_file.ts";
import { skimForLiteral } from "./_literal_skim.ts";
import { threadPort } from "../../internal/thread_port.ts";
import {
  PROGRESS_JOB,
  PROGRESS_MATCHING,
  PROGRESS_STEPS,
  PROGRESS_STOP,
  type RegexCancel,
  type RegexJob,
  type RegexReply,
} from "./_regex_scanner.ts";

const port = await threadPort();
/** The scans running, by job id, to stop the cancelled ones. */
const running = new Map<number, AbortController>();

port.onMessage(async (data) => {
  const message = data as RegexJob[] | RegexCancel;
  if ("cancel" in message) {
    running.get(message.cancel)?.abort();
    return;
  }
  // One reply for the batch: the scans a skim settles end at once.
  const replies = await Promise.all(message.map(run));
  port.post(replies, []);
});

async function run(job: RegexJob): Promise<RegexReply> {
  const progress = new Int32Array(job.progress);
  // A step as the job arrives: the scanner's budget then runs from here, not
  // from a boot slowed down by a busy machine.
  Atomics.add(progress, PROGRESS_STEPS, 1);
  const onChunk = () => {
    Atomics.add(progress, PROGRESS_STEPS, 1);
    // Terminated while a match was stuck, this thread runs on once it
    // returns: match nothing more.
    if (Atomics.load(progress, PROGRESS_STOP) !== 0) {
      throw new Error("the search gave up on this worker");
    }
    Atomics.store(progress, PROGRESS_JOB, job.id);
    Atomics.store(progress, PROGRESS_MATCHING, 1);
  };
  const afterChunk = () => Atomics.store(progress, PROGRESS_MATCHING, 0);
  const cancel = new AbortController();
  running.set(job.id, cancel);
  let reply: RegexReply;
  try {
    const skim = job.literal &&
      skimForLiteral(job.path, job.literal, { onChunk, afterChunk });
    let scan: FileScan;
    if (skim === "absent" || skim === "binary") {
      scan = { matches: [], binary: skim === "binary" };
    } else {
      const pattern = new RegExp(job.source, job.flags);
      scan = await scanFile(job.path, pattern, {
        limit: job.limit,
        onChunk,
        afterChunk,
        signal: cancel.signal,
        blocking: true,
      });
    }
    reply = { id: job.id, kind: "done", scan };
  } catch (error) {
    reply = { id: job.id, kind: "failed", message: String(error) };
  }
  running.delete(job.id);
  // Lowered whatever way the scan ended (a match may have thrown).
  afterChunk();
  // A step at the end too: the main thread tells a stuck match that ended
  // (whatever way the scan ended) from one still running.
  Atomics.add(progress, PROGRESS_STEPS, 1);
  return reply;
}
