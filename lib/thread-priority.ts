import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";

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
 * alone (setpriority(2)). The id comes from `/proc/thread-self`, a link to `<pid>/task/<tid>`. Lowering is
 * allowed to any user. Returns the thread's id, or `null` where there is no such link (not Linux) or the
 * call was refused: the thread then runs at its priority as it was.
 */
export function lowerThisThread(): number | null {
  let tid: number;
  try {
    tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
  } catch {
    return null;
  }
  if (!Number.isSafeInteger(tid) || tid <= 0) return null;
  try {
    setPriority(tid, BACKGROUND_NICE);
  } catch {
    return null;
  }
  return tid;
}
