/**
 * Browser-safe core of the memory format: no `node:*` imports, so client
 * components may import `@/lib/memory/format` on its own.
 */
import { Document } from "yaml";
import type { Limits } from "./limits";
import { MESSAGES } from "./messages";

/** Who saved a memory, as its file's `source` field says. */
export type MemoryAuthor = "user" | "ai";

/** Where a state of a memory came from; the suffix of a version's name. */
export type VersionSource = "chat" | "settings" | "restore" | "undo" | "external" | "found";

/** Every version source, in the contract's order. */
export const VERSION_SOURCES: readonly VersionSource[] = ["chat", "settings", "restore", "undo", "external", "found"];

/** The words the dashboard shows for each source. */
export const SOURCE_WORDS: Readonly<Record<VersionSource, string>> = {
  chat: "from a chat",
  settings: "in Settings",
  restore: "restored",
  undo: "undone",
  external: "edited outside the app",
  found: "found",
};

/** The frontmatter of a memory file. `otherFields` keeps unknown fields, in file order. */
export interface MemoryFields {
  title: string;
  enabled: boolean;
  source: MemoryAuthor;
  sessionId?: string;
  created?: string;
  updated?: string;
  /** Fields the contract does not name, kept unchanged on save: `[name, value]` pairs. */
  otherFields?: [string, unknown][];
}

/** The fields in the contract's order (the order of the "missing or invalid" list, too). */
export const FIELD_NAMES = ["title", "enabled", "source", "sessionId", "created", "updated"] as const;

/** One line, single spaces: runs of white space (newlines included) become one space; ends trimmed. */
export function normaliseTitle(title: string): string {
  return title.replace(/\s+/gu, " ").trim();
}

/** The text of a memory: trimmed at both ends. */
export function normaliseText(text: string): string {
  return text.trim();
}

/** Unicode code points in `text` (a surrogate pair counts once). */
export function countCodePoints(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** Oda's token estimate: `ceil(code points / 4)`. */
export function estimateTokens(text: string): number {
  return Math.ceil(countCodePoints(text) / 4);
}

/** UTF-8 bytes of `text`. */
export function countUtf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** What a chat receives: each memory as `## <title>\n<text>`, joined by one empty line. */
export function renderPayload(memories: readonly { title: string; text: string }[]): string {
  return memories.map((m) => `## ${m.title}\n${m.text}`).join("\n\n");
}

/**
 * The exact bytes of a saved memory file: the block (title, enabled, source,
 * sessionId, created, updated, then unknown fields as they were), one empty
 * line, the text, one final newline.
 */
export function serialiseMemoryFile(fields: MemoryFields, text: string): string {
  const entries = new Map<string, unknown>([
    ["title", normaliseTitle(fields.title)],
    ["enabled", fields.enabled],
    ["source", fields.source],
  ]);
  if (fields.sessionId !== undefined) entries.set("sessionId", fields.sessionId);
  if (fields.created !== undefined) entries.set("created", fields.created);
  if (fields.updated !== undefined) entries.set("updated", fields.updated);
  for (const [name, value] of fields.otherFields ?? []) {
    if (!entries.has(name)) entries.set(name, value);
  }
  const block = new Document(entries, { version: "1.2", schema: "core" }).toString({ lineWidth: 0 });
  return `---\n${block}---\n\n${normaliseText(text)}\n`;
}

/** A field-level refusal: the exact sentence and the field it concerns. */
export interface FieldProblem {
  field: "title" | "text";
  message: string;
}

/**
 * Checks a title and a text before saving. Returns the refusals (title first),
 * empty when both may be saved. The first one is the change's refusal.
 */
export function checkTitleAndText(
  title: string,
  text: string,
  limits: Pick<Limits, "titleMaxChars" | "textMaxChars">,
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const t = normaliseTitle(title);
  const x = normaliseText(text);
  const titleLength = countCodePoints(t);
  const textLength = countCodePoints(x);
  if (!t) problems.push({ field: "title", message: MESSAGES.needsTitle });
  else if (titleLength > limits.titleMaxChars)
    problems.push({ field: "title", message: MESSAGES.titleTooLong(limits.titleMaxChars, titleLength) });
  if (!x) problems.push({ field: "text", message: MESSAGES.needsText });
  else if (textLength > limits.textMaxChars)
    problems.push({ field: "text", message: MESSAGES.textTooLong(limits.textMaxChars, textLength) });
  return problems;
}

/** One memory as a chat receives it, for comparing payloads. */
export interface PayloadItem {
  id: string;
  title: string;
  text: string;
}

/**
 * The note a running chat is sent after its memory changed: what was added,
 * changed (with the new text) and removed (by title), and that the change
 * applies from now on while the rest is unchanged. Null when nothing differs.
 */
export function describePayloadNote(before: readonly PayloadItem[], after: readonly PayloadItem[]): string | null {
  const old = new Map(before.map((m) => [m.id, m]));
  const now = new Map(after.map((m) => [m.id, m]));
  const added = after.filter((m) => !old.has(m.id));
  const changed = after.filter((m) => {
    const o = old.get(m.id);
    return o !== undefined && (o.title !== m.title || o.text !== m.text);
  });
  const removed = before.filter((m) => !now.has(m.id));
  if (!added.length && !changed.length && !removed.length) return null;
  const parts = ["Your memory has changed."];
  if (added.length) parts.push(`Added:\n\n${renderPayload(added)}`);
  if (changed.length) parts.push(`Changed:\n\n${renderPayload(changed)}`);
  if (removed.length) parts.push(`Removed: ${removed.map((m) => `"${m.title}"`).join(", ")}.`);
  parts.push("This applies from now on; the rest of your memory is unchanged.");
  return parts.join("\n\n");
}
