import { plural } from "../lib/words";
import type { CommandContext } from "./context";

/**
 * Items a whole-folder command could not read (`lib/fs/system-error.ts`): like
 * rsync's "some files were not transferred", the command prints each one's
 * sentence, then how many were left out, and exits 1 though the rest was done.
 */

/** `2 files or folders could not be read; what they hold is left out.` */
export function leftOutSentence(n: number): string {
  return `${plural(n, "file or folder", "files or folders")} could not be read; what ${n === 1 ? "it holds is" : "they hold is"} left out.`;
}

/**
 * Prints the left-out items (`! <sentence>` each, unless `printed` says the
 * caller showed them already) and their count, without `--json`; returns the
 * exit code: 1 when any was left out, else `ok`.
 */
export function reportLeftOut(
  ctx: CommandContext,
  sentences: readonly string[],
  options: { printed?: boolean; ok?: number } = {},
): number {
  if (!sentences.length) return options.ok ?? 0;
  if (!ctx.json) {
    if (!options.printed) for (const s of sentences) ctx.out(`! ${s}`);
    ctx.out(leftOutSentence(sentences.length));
  }
  return 1;
}
