/**
 * The searchable text of one log line (`docs/file-contract.md`, Chat logs > Lines).
 * A message gives its text under its role and, when it calls or answers a
 * tool, a second entry under the role `tool`; a memory line gives its text
 * under `memory`, a title under `title`. Format 1 lines give their text under
 * their role. Any other object is searchable by its string values (`event`),
 * and a line that is not JSON by its raw text (`unparsed`).
 */

/** Roles a search can be narrowed to. */
export const SEARCH_ROLES = ["user", "assistant", "system", "tool", "memory", "title", "event", "unparsed"] as const;
export type SearchRole = (typeof SEARCH_ROLES)[number];

/** One searchable entry of a line. */
export interface LineText {
  role: string;
  ts: string | null;
  text: string;
}

const MAX_TEXT = 200_000;

function clip(text: string): string {
  return text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text;
}

/** Every string inside a value, depth-first (tool inputs, unknown events). */
function strings(value: unknown, out: string[], depth = 0): void {
  if (depth > 8) return;
  if (typeof value === "string") out.push(value);
  else if (typeof value === "number" || typeof value === "boolean") out.push(String(value));
  else if (Array.isArray(value)) for (const v of value) strings(v, out, depth + 1);
  else if (value && typeof value === "object") for (const v of Object.values(value)) strings(v, out, depth + 1);
}

function allStrings(value: unknown): string {
  const out: string[] = [];
  strings(value, out);
  return out.join(" ");
}

/** The message text and the tool text of a message's content. */
function messageParts(content: unknown): { text: string[]; tool: string[] } {
  const text: string[] = [];
  const tool: string[] = [];
  if (typeof content === "string") text.push(content);
  else if (Array.isArray(content)) {
    for (const part of content) {
      if (typeof part === "string") {
        text.push(part);
        continue;
      }
      if (!part || typeof part !== "object") continue;
      const p = part as Record<string, unknown>;
      if (p.type === "tool_use") {
        tool.push([typeof p.name === "string" ? p.name : "", allStrings(p.input)].join(" ").trim());
      } else if (p.type === "tool_result") tool.push(allStrings(p.content));
      else if (typeof p.text === "string") text.push(p.text);
      else if (typeof p.thinking === "string") text.push(p.thinking);
    }
  }
  return { text, tool };
}

/** The searchable entries of a parsed line (`null`: a line that is not a JSON object, with its raw text). */
export function extractText(json: Record<string, unknown> | null, raw: string): LineText[] {
  if (!json) return raw.trim() ? [{ role: "unparsed", ts: null, text: clip(raw) }] : [];
  const ts = typeof json.ts === "string" ? json.ts : typeof json.time === "string" ? json.time : null;
  const type = json.type;
  if (type === "session" || type === "turn_end") return [];
  if (type === "message" || (type === undefined && typeof json.role === "string")) {
    const role = typeof json.role === "string" ? json.role : "event";
    const { text, tool } = messageParts(json.content ?? json.text);
    if (typeof json.text === "string" && json.content !== undefined) text.push(json.text);
    const out: LineText[] = [];
    const body = text.join("\n").trim();
    if (body) out.push({ role, ts, text: clip(body) });
    const calls = tool.join("\n").trim();
    if (calls) out.push({ role: "tool", ts, text: clip(calls) });
    return out;
  }
  if (type === "memory" && typeof json.text === "string")
    return json.text.trim() ? [{ role: "memory", ts, text: clip(json.text) }] : [];
  if (type === "title" && typeof json.title === "string")
    return json.title.trim() ? [{ role: "title", ts, text: clip(json.title) }] : [];
  const { ts: _ts, time: _time, ...rest } = json;
  const text = allStrings(rest).trim();
  return text ? [{ role: "event", ts, text: clip(text) }] : [];
}
