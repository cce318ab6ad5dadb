/**
 * Reading a memory file, browser-safe (no `node:*`): the checks of the
 * contract's "A file with a problem" table, in its order.
 */
import { type Document, isMap, isScalar, parseDocument, visit } from "yaml";
import { countCodePoints, FIELD_NAMES, type MemoryFields, normaliseText, normaliseTitle } from "./format";
import type { Limits } from "./limits";
import { MESSAGES } from "./messages";

/** A file that reads as a memory. */
export interface ParsedMemory {
  ok: true;
  fields: MemoryFields;
  /** The normalised title. */
  title: string;
  /** The trimmed text. */
  text: string;
}

/** A file with a problem: the contract's sentence, and the file's line when the parser names one. */
export interface MemoryProblem {
  ok: false;
  message: string;
  line?: number;
  /** The system would not give the file (permission, I/O error, …): it is left out, not judged. */
  unreadable?: true;
}

export type MemoryParse = ParsedMemory | MemoryProblem;

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;

/** True for an ISO 8601 date-time string (`created`, `updated`). */
export function isIsoDateTime(value: unknown): value is string {
  return typeof value === "string" && ISO_DATE_TIME.test(value) && !Number.isNaN(Date.parse(value));
}

const problem = (message: string, line?: number): MemoryProblem =>
  line === undefined ? { ok: false, message } : { ok: false, message, line };

/** Splits off the frontmatter block: null when there is no opening or closing `---` line. */
export function splitFrontmatter(raw: string): { block: string; body: string } | null {
  const s = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  const firstEnd = s.indexOf("\n");
  if (firstEnd === -1 || s.slice(0, firstEnd).replace(/\r$/, "") !== "---") return null;
  let pos = firstEnd + 1;
  while (pos <= s.length) {
    const nl = s.indexOf("\n", pos);
    const end = nl === -1 ? s.length : nl;
    if (s.slice(pos, end).replace(/\r$/, "") === "---") {
      return { block: s.slice(firstEnd + 1, pos), body: nl === -1 ? "" : s.slice(nl + 1) };
    }
    if (nl === -1) break;
    pos = nl + 1;
  }
  return null;
}

// ---- fast path: the common plain `key: value` block, proven equal to the YAML path by a property test

const FAST_LINE = /^(title|enabled|source|sessionId|created|updated): +(.*?) *$/;
const SAFE_PLAIN =
  /^[A-Za-z0-9_(\u00A0-\u2027\u202A-\uD7FF\uE000-\uFEFE\uFF00-\uFFFD][A-Za-z0-9 _.,()/?!'\-\u00A0-\u2027\u202A-\uD7FF\uE000-\uFEFE\uFF00-\uFFFD]*$/;
const CORE_NOT_STRING =
  /^(?:null|Null|NULL|true|True|TRUE|false|False|FALSE|[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?)$/;

/** True when `value` written plain is read back by the core schema as this very string. */
export function isSafePlainString(value: string): boolean {
  return SAFE_PLAIN.test(value) && !value.endsWith(" ") && !CORE_NOT_STRING.test(value);
}

/** The block's fields when every line is a simple known `key: value`; undefined to use the YAML parser. */
export function readSimpleBlock(block: string): Record<string, unknown> | undefined {
  const lines = block.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  const out: Record<string, unknown> = Object.create(null);
  for (const rawLine of lines) {
    const line = rawLine.endsWith("\r") ? rawLine.slice(0, -1) : rawLine;
    const m = FAST_LINE.exec(line);
    if (!m) return undefined;
    const key = m[1] as string;
    const value = m[2] as string;
    if (key in out) return undefined;
    if (key === "enabled") {
      if (value !== "true" && value !== "false") return undefined;
      out.enabled = value === "true";
    } else if (key === "created" || key === "updated") {
      if (!ISO_DATE_TIME.test(value)) return undefined;
      out[key] = value;
    } else if (isSafePlainString(value)) {
      out[key] = value;
    } else return undefined;
  }
  return out;
}

// ---- the YAML path

function lineOf(block: string, offset: number | undefined): number | undefined {
  if (offset === undefined || offset < 0) return undefined;
  let line = 2; // the block starts on the file's second line
  for (let i = 0; i < offset && i < block.length; i++) if (block.charCodeAt(i) === 10) line++;
  return line;
}

type YamlRead = { ok: true; fields: Record<string, unknown>; order: string[] } | MemoryProblem;

function readYamlBlock(block: string): YamlRead {
  let doc: Document.Parsed;
  try {
    doc = parseDocument(block, { version: "1.2", schema: "core", uniqueKeys: true, prettyErrors: false, merge: false });
    const first = doc.errors[0] ?? doc.warnings[0];
    if (first) return problem(MESSAGES.badYaml(firstLine(first.message)), lineOf(block, first.pos?.[0]));
    let anchored: number | undefined | null = null;
    visit(doc, {
      Alias(_key, node) {
        anchored = node.range?.[0];
        return visit.BREAK;
      },
      Node(_key, node) {
        if ((node as { anchor?: string }).anchor) {
          anchored = node.range?.[0];
          return visit.BREAK;
        }
      },
    });
    if (anchored !== null)
      return problem(MESSAGES.badYaml("Anchors and aliases are not allowed."), lineOf(block, anchored));
    if (doc.contents === null) return { ok: true, fields: Object.create(null), order: [] };
    if (!isMap(doc.contents)) return problem(MESSAGES.badFields(["title", "enabled", "source"]));
    const fields: Record<string, unknown> = Object.create(null);
    const order: string[] = [];
    for (const pair of doc.contents.items) {
      const key = isScalar(pair.key) ? pair.key.value : pair.key;
      if (typeof key !== "string" && typeof key !== "number" && typeof key !== "boolean" && key !== null) {
        return problem(
          MESSAGES.badYaml("Map keys must be plain values."),
          lineOf(block, (pair.key as { range?: number[] })?.range?.[0]),
        );
      }
      const name = String(key);
      const value = pair.value;
      fields[name] =
        value && typeof value === "object" && "toJS" in value
          ? (value as { toJS(d: Document): unknown }).toJS(doc)
          : value;
      order.push(name);
    }
    return { ok: true, fields, order };
  } catch (error) {
    // deep nesting and any other parser failure end here, never uncaught
    return problem(MESSAGES.badYaml(firstLine(error instanceof Error ? error.message : String(error))));
  }
}

function firstLine(message: string): string {
  return (message.split("\n")[0] ?? "").trim().replace(/:$/, "") || "unknown error";
}

/** Validates the known fields; returns the names missing or invalid, in the contract's order. */
function checkFields(f: Record<string, unknown>): string[] {
  const bad: string[] = [];
  const title = f.title;
  if (typeof title !== "string" || !normaliseTitle(title)) bad.push("title");
  if (typeof f.enabled !== "boolean") bad.push("enabled");
  if (f.source !== "user" && f.source !== "ai") bad.push("source");
  if ("sessionId" in f && typeof f.sessionId !== "string") bad.push("sessionId");
  if ("created" in f && !isIsoDateTime(f.created)) bad.push("created");
  if ("updated" in f && !isIsoDateTime(f.updated)) bad.push("updated");
  return bad;
}

/**
 * Parses a memory file's text (no limits applied): frontmatter, YAML (core
 * schema, unique keys, no aliases, no custom tags), fields.
 */
export function parseMemorySource(raw: string, options: { fastPath?: boolean } = {}): MemoryParse {
  const parts = splitFrontmatter(raw);
  if (!parts) return problem(MESSAGES.noFrontmatter);
  let fields: Record<string, unknown>;
  let order: string[];
  const simple = options.fastPath === false ? undefined : readSimpleBlock(parts.block);
  if (simple) {
    fields = simple;
    order = Object.keys(simple);
  } else {
    const read = readYamlBlock(parts.block);
    if (!read.ok) return read;
    fields = read.fields;
    order = read.order;
  }
  const bad = checkFields(fields);
  if (bad.length) return problem(MESSAGES.badFields(bad));
  const known = new Set<string>(FIELD_NAMES);
  const memory: MemoryFields = {
    title: fields.title as string,
    enabled: fields.enabled as boolean,
    source: fields.source as MemoryFields["source"],
  };
  if ("sessionId" in fields) memory.sessionId = fields.sessionId as string;
  if ("created" in fields) memory.created = fields.created as string;
  if ("updated" in fields) memory.updated = fields.updated as string;
  const others = order.filter((k) => !known.has(k)).map((k): [string, unknown] => [k, fields[k]]);
  if (others.length) memory.otherFields = others;
  return { ok: true, fields: memory, title: normaliseTitle(memory.title), text: normaliseText(parts.body) };
}

/** Checks a parsed memory against the title and text limits. */
export function checkParsedLimits(
  parsed: MemoryParse,
  limits: Pick<Limits, "titleMaxChars" | "textMaxChars">,
): MemoryParse {
  if (!parsed.ok) return parsed;
  if (countCodePoints(parsed.text) > limits.textMaxChars || countCodePoints(parsed.title) > limits.titleMaxChars) {
    return problem(MESSAGES.overLimit(limits.textMaxChars, limits.titleMaxChars));
  }
  return parsed;
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Decodes UTF-8 strictly: null when the bytes are not valid UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

/** Every check of the contract, in its order, on a file's bytes. */
export function parseMemoryFile(bytes: Uint8Array, limits: Limits): MemoryParse {
  if (bytes.length > limits.fileMaxBytes) return problem(MESSAGES.fileTooLarge(limits.fileMaxBytes));
  const raw = decodeUtf8(bytes);
  if (raw === null) return problem(MESSAGES.cannotRead("it is not valid UTF-8 text."));
  return checkParsedLimits(parseMemorySource(raw), limits);
}
