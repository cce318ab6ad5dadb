/**
 * The diff of two states of a memory, framework-free and browser-safe: the
 * title and `enabled` as field changes, the text line by line (jsdiff
 * `diffLines`) with word-level highlights (`diffWordsWithSpace`) inside each
 * removed line paired with the added line that replaced it.
 */
import { diffLines, diffWordsWithSpace } from "diff";

/** A piece of a line; `changed` marks the words that differ from the paired line. */
export interface Segment {
  text: string;
  changed: boolean;
}

/** One line of the text diff. Line numbers are 1-based, in the old and new text. */
export interface DiffLine {
  kind: "same" | "added" | "removed";
  text: string;
  segments: Segment[];
  oldNo?: number;
  newNo?: number;
}

/** One row of the side-by-side view: the old line on the left, the new one on the right. */
export interface SideBySideRow {
  left: DiffLine | null;
  right: DiffLine | null;
}

/** A changed field, shown as old → new. `null` means the state did not have it (a file with a problem). */
export interface FieldChange {
  field: "title" | "enabled";
  old: string | boolean | null;
  new: string | boolean | null;
}

/** What the diff view needs of one state of a memory. */
export interface DiffSide {
  title: string | null;
  enabled: boolean | null;
  text: string;
}

/** The whole diff of two states. */
export interface MemoryDiff {
  fields: FieldChange[];
  inline: DiffLine[];
  sideBySide: SideBySideRow[];
  added: number;
  removed: number;
}

function splitLines(value: string): string[] {
  const lines = value.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines.map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
}

// Without a shared final newline, an unchanged last line would read as changed.
const withFinalNewline = (text: string) => (text === "" || text.endsWith("\n") ? text : `${text}\n`);

const whole = (text: string): Segment[] => (text ? [{ text, changed: false }] : []);

/** Word-level segments of a removed line and the added line that replaced it. */
export function pairSegments(oldLine: string, newLine: string): { old: Segment[]; new: Segment[] } {
  const oldSegs: Segment[] = [];
  const newSegs: Segment[] = [];
  for (const part of diffWordsWithSpace(oldLine, newLine)) {
    if (!part.added) oldSegs.push({ text: part.value, changed: part.removed });
    if (!part.removed) newSegs.push({ text: part.value, changed: part.added });
  }
  return { old: coalesce(oldSegs), new: coalesce(newSegs) };
}

/** Joins changed words separated only by white space ("bullet points", not "bullet" and "points"). */
function coalesce(segs: Segment[]): Segment[] {
  const out: Segment[] = [];
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i] as Segment;
    const bridge = !s.changed && /^\s+$/.test(s.text) && out.at(-1)?.changed && segs[i + 1]?.changed;
    const last = out.at(-1);
    if (last && (bridge || (s.changed && last.changed))) last.text += s.text;
    else out.push({ ...s, changed: s.changed });
  }
  return out;
}

/** Line diff of two texts, inline and side by side, with word highlights on paired changed lines. */
export function diffText(oldText: string, newText: string): Omit<MemoryDiff, "fields"> {
  const inline: DiffLine[] = [];
  const sideBySide: SideBySideRow[] = [];
  let oldNo = 0;
  let newNo = 0;
  let added = 0;
  let removed = 0;
  const parts = diffLines(withFinalNewline(oldText), withFinalNewline(newText));
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (!part) continue;
    if (!part.added && !part.removed) {
      for (const text of splitLines(part.value)) {
        const line: DiffLine = { kind: "same", text, segments: whole(text), oldNo: ++oldNo, newNo: ++newNo };
        inline.push(line);
        sideBySide.push({ left: line, right: line });
      }
      continue;
    }
    // A removed block followed by an added block: pair their lines for word highlights.
    const next = parts[i + 1];
    const removedLines = part.removed ? splitLines(part.value) : [];
    const addedLines = part.added ? splitLines(part.value) : next?.added ? splitLines(next.value) : [];
    if (part.removed && next?.added) i++;
    const olds: DiffLine[] = removedLines.map((text) => ({
      kind: "removed",
      text,
      segments: whole(text),
      oldNo: ++oldNo,
    }));
    const news: DiffLine[] = addedLines.map((text) => ({ kind: "added", text, segments: whole(text), newNo: ++newNo }));
    const pairs = Math.max(olds.length, news.length);
    for (let k = 0; k < pairs; k++) {
      const o = olds[k];
      const n = news[k];
      if (o && n) {
        const segs = pairSegments(o.text, n.text);
        o.segments = segs.old;
        n.segments = segs.new;
      }
      sideBySide.push({ left: o ?? null, right: n ?? null });
    }
    inline.push(...olds, ...news);
    removed += olds.length;
    added += news.length;
  }
  return { inline, sideBySide, added, removed };
}

/** The diff of two states of a memory: field changes (title, enabled), then the text. */
export function diffMemory(oldSide: DiffSide, newSide: DiffSide): MemoryDiff {
  const fields: FieldChange[] = [];
  if (oldSide.title !== newSide.title) fields.push({ field: "title", old: oldSide.title, new: newSide.title });
  if (oldSide.enabled !== newSide.enabled)
    fields.push({ field: "enabled", old: oldSide.enabled, new: newSide.enabled });
  return { fields, ...diffText(oldSide.text, newSide.text) };
}
