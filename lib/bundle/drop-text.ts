/**
 * `--drop-text`: every message, tool and memory text becomes `x`s of the same
 * byte length inside its JSON string, so roles, sizes, times, usage, problems
 * and line offsets stay. `dropEventText` works on a parsed line; `droppedAt`
 * says the same of one string by its place in the line (for a line too long
 * to parse whole, read as a stream).
 */

/** The same number of bytes as `text` takes inside a JSON string, all `x`: sizes and offsets hold. */
export function fillerFor(text: string): string {
  return "x".repeat(Buffer.byteLength(JSON.stringify(text)) - 2);
}

function dropStrings(value: unknown): unknown {
  if (typeof value === "string") return fillerFor(value);
  if (Array.isArray(value)) return value.map(dropStrings);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, dropStrings(v)]));
  return value;
}

function dropPart(part: unknown): unknown {
  if (typeof part === "string") return fillerFor(part);
  if (part === null || typeof part !== "object" || Array.isArray(part)) return part;
  const p = { ...(part as Record<string, unknown>) };
  if (typeof p.text === "string") p.text = fillerFor(p.text);
  if ("input" in p) p.input = dropStrings(p.input);
  if (typeof p.content === "string") p.content = fillerFor(p.content);
  else if (Array.isArray(p.content)) p.content = p.content.map(dropPart);
  return p;
}

/** An event with every message, tool and memory text replaced; roles, times and usage kept. */
export function dropEventText(line: Record<string, unknown>): Record<string, unknown> {
  const out = { ...line };
  if (typeof out.text === "string") out.text = fillerFor(out.text);
  if (typeof out.title === "string" && out.type === "title") out.title = fillerFor(out.title);
  if (typeof out.content === "string") out.content = fillerFor(out.content);
  else if (Array.isArray(out.content)) out.content = out.content.map(dropPart);
  return out;
}

/** A place in a line: object keys and array indexes from the top. */
export type JsonPath = (string | number)[];

/** Whether `dropPart` fills a string at `rest` inside one part of a `content` array. */
function partDropped(rest: JsonPath): boolean {
  if (rest.length === 0) return true;
  const [head, next] = rest;
  if (head === "input") return true;
  if (head === "text") return rest.length === 1;
  if (head !== "content") return false;
  return rest.length === 1 || (typeof next === "number" && partDropped(rest.slice(2)));
}

/**
 * Whether `dropEventText` fills the string value at `path`. `type` is the
 * line's `type` when it came before (`undefined`: not seen yet); a title is
 * filled unless the line is known not to be a title line.
 */
export function droppedAt(path: JsonPath, type: string | undefined): boolean {
  const [head, next] = path;
  if (head === "text") return path.length === 1;
  if (head === "title") return path.length === 1 && (type === undefined || type === "title");
  if (head !== "content") return false;
  return path.length === 1 || (typeof next === "number" && partDropped(path.slice(2)));
}
