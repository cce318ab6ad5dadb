import { nameGenerations, readChatFolder } from "./chat";
import { walkLogFolder } from "./folder";

/** How many chats of a log folder a form (`sessions.compress`) would refuse for their logs' form. */
export interface FormRefusals {
  /** Chats whose current log is of the other form: refused under this form. */
  refused: number;
  /** Every chat found in the log folder. */
  total: number;
}

/**
 * Counts the chats a log folder would refuse if it kept `compress` logs,
 * before a person changes `sessions.compress`. Only folder names and chat
 * folder listings are read, never a log: a chat is refused when its newest
 * format has no log of that form (the reader never falls back to an older
 * generation). A chat refused for another reason (no log, a link leading
 * outside) is not counted: the change does not make it so.
 */
export function countFormRefusals(logDir: string, compress: boolean): FormRefusals {
  const { chats } = walkLogFolder(logDir);
  let refused = 0;
  for (const loc of chats) {
    const gens = nameGenerations(loc.dir, readChatFolder(loc), compress);
    if (gens.length === 0 || gens.some((g) => g.current)) continue;
    const newest = Math.max(...gens.map((g) => g.format));
    if (gens.some((g) => g.format === newest && !g.blocked)) refused++;
  }
  return { refused, total: chats.length };
}
