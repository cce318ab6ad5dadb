import { readlinkSync } from "node:fs";
import { getPriority, setPriority } from "node:os";

/**
 * The nice value of a thread that works in the background. Beside a thread at 0 it gets about a tenth of a
 * core they share (CFS weights 110 against 1024), so a person's requests go first; the lowest, 19, would
 * also leave it 1.5% beside every other program of the machine at 0 where the kernel does not group
 * processes by session (autogroup), and a Preview on a busy machine would hardly move.
 */
export const BACKGROUND_NICE = 10;

/**
 * Lowers the calling thread's CPU priority to `BACKGROUND_NICE`, leaving the process's other threads as they
 * are: on Linux a nice value belongs to a thread, and `setpriority` given a thread's id sets that thread's
 * alone (setpriority(2)). The id comes from `/proc/thread-self`, a link to `<pid>/task/<tid>`. It only ever
 * lowers (any user may): a thread already at that nice value or above stays as it is. Where there is no such
 * link (not Linux) or the call is refused, the thread runs at its priority as it was.
 */
export function lowerThisThread(): void {
  let tid: number;
  try {
    tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
  } catch {
    return;
  }
  if (!Number.isSafeInteger(tid) || tid <= 0) return;
  try {
    if (getPriority(tid) < BACKGROUND_NICE) setPriority(tid, BACKGROUND_NICE);
  } catch {
    // Refused: the thread runs as it was.
  }
}
