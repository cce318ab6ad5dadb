import { checkedNotes } from "../../lib/notes";
import { requireRoot } from "../../lib/roots";
import { type Command, flagString } from "../context";
import { logFolder } from "../log-folder";

/**
 * `oda-admin notes list [--chat ID] [--json]`: the marks and notes kept in the
 * admin state, each with whether its line still reads as it did (`kept`) or
 * changed or is gone (`lost`). Exits 1 when a note is lost.
 */
const list: Command = async (ctx) => {
  const state = requireRoot(ctx.roots, "state");
  const logs = requireRoot(ctx.roots, "logs");
  const notes = await checkedNotes(state, logs, {
    chat: flagString(ctx, "chat"),
    compress: logFolder(ctx).compress,
  });
  if (ctx.json) ctx.out(JSON.stringify({ ok: true, notes }, null, 2));
  else {
    for (const n of notes)
      ctx.out(
        [
          n.chat,
          n.to ? `lines ${n.line}-${n.to}` : `line ${n.line}`,
          n.state,
          n.text ? n.text.replace(/\s+/g, " ") : "(mark)",
        ].join("  "),
      );
    if (!notes.length) ctx.out("No marks or notes.");
  }
  return notes.some((n) => n.state === "lost") ? 1 : 0;
};

export const notesRuns = { "notes list": list };
