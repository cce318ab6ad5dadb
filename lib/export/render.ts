/**
 * One log line as a piece of an exported chat: Markdown (roles, times, code
 * blocks, tool calls folded in `<details>`) or HTML (the same, escaped, for
 * one self-contained file). Every line of the log gives one piece, so an
 * export is written line by line and never holds more than one line.
 */

/** What one line turns into: its role and time when it is a message, its blocks otherwise. */
interface Block {
  kind: "text" | "code" | "fold";
  /** `fold`: the summary. */
  summary?: string;
  text: string;
  /** `fold`: shown as an error (a tool result marked `is_error`). */
  error?: boolean;
}

interface Piece {
  heading: string | null;
  role: string | null;
  blocks: Block[];
}

const str = (v: unknown): string | null => (typeof v === "string" ? v : null);

function pretty(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value, null, 2);
}

/** A tool result's content: a string, or parts whose texts are joined. */
function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    const texts = content.map((p) => (p && typeof p === "object" ? str((p as { text?: unknown }).text) : null));
    if (texts.every((t) => t !== null)) return texts.join("\n");
  }
  return pretty(content);
}

function contentBlocks(content: unknown): Block[] {
  if (typeof content === "string") return [{ kind: "text", text: content }];
  if (!Array.isArray(content)) return content === undefined ? [] : [{ kind: "code", text: pretty(content) }];
  const blocks: Block[] = [];
  for (const part of content) {
    const p = (part && typeof part === "object" ? part : {}) as Record<string, unknown>;
    if (p.type === "text" && typeof p.text === "string") blocks.push({ kind: "text", text: p.text });
    else if (p.type === "tool_use")
      blocks.push({
        kind: "fold",
        summary: `Tool call: ${str(p.name) ?? "?"} (${str(p.id) ?? "?"})`,
        text: pretty(p.input ?? null),
      });
    else if (p.type === "tool_result")
      blocks.push({
        kind: "fold",
        summary: `Tool result${p.is_error === true ? " (error)" : ""} for ${str(p.tool_use_id) ?? "?"}`,
        text: resultText(p.content),
        error: p.is_error === true,
      });
    else blocks.push({ kind: "fold", summary: `Part: ${str(p.type) ?? "unknown"}`, text: pretty(part) });
  }
  return blocks;
}

const ROLES: Record<string, string> = { user: "User", assistant: "Assistant", system: "System" };

/** A line as its heading and blocks; `json` null means the line is not a JSON object. */
function pieceOf(n: number, raw: string, json: Record<string, unknown> | null, cut: number | null): Piece {
  if (cut !== null)
    return {
      heading: `Line ${n}`,
      role: null,
      blocks: [{ kind: "fold", summary: `Line ${n} is ${cut} bytes long: only its start is shown`, text: raw }],
    };
  if (json === null)
    return {
      heading: `Line ${n}`,
      role: null,
      blocks: [{ kind: "fold", summary: `Line ${n} is not a JSON object`, text: raw, error: true }],
    };
  const time = str(json.ts) ?? str(json.time);
  const role = str(json.role);
  if (json.type === "message" || (json.type === undefined && role !== null)) {
    const model = str(json.model);
    const heading = [ROLES[role ?? ""] ?? role ?? "Message", time, model].filter(Boolean).join(" · ");
    const blocks = json.type === "message" ? contentBlocks(json.content) : contentBlocks(json.text);
    return { heading, role, blocks };
  }
  if (json.type === "session")
    return {
      heading: null,
      role: null,
      blocks: [
        {
          kind: "text",
          text: `Chat ${str(json.id) ?? "?"} · format ${pretty(json.format)} · started ${str(json.created) ?? "?"} · working folder ${str(json.cwd) ?? "none"}`,
        },
      ],
    };
  if (json.type === "title")
    return { heading: null, role: null, blocks: [{ kind: "text", text: `Title: ${str(json.title) ?? ""}` }] };
  if (json.type === "turn_end") return { heading: null, role: null, blocks: [] };
  if (json.type === "memory")
    return {
      heading: null,
      role: null,
      blocks: [
        {
          kind: "fold",
          summary: `Memory sent (${str(json.mode) ?? "?"})${time ? ` · ${time}` : ""}`,
          text: pretty(json.text),
        },
      ],
    };
  return {
    heading: null,
    role: null,
    blocks: [
      { kind: "fold", summary: `Line ${n}: ${str(json.type) ?? "an object without a type"}`, text: pretty(json) },
    ],
  };
}

/** A Markdown code fence longer than any run of backticks in `text`. */
function fence(text: string): string {
  let longest = 2;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return "`".repeat(longest + 1);
}

const HTML_SPECIAL = /[&<>"']/;

/**
 * `&`, `<`, `>`, `"` and `'` as numeric references. Most text has none: it is returned as it is after one
 * search; otherwise one pass copies the runs between them (a replace with a callback per match was the
 * HTML export's hot spot on a 1 GB log).
 */
function escapeHtml(text: string): string {
  const first = text.search(HTML_SPECIAL);
  if (first < 0) return text;
  let out = "";
  let last = 0;
  for (let i = first; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 38 && c !== 60 && c !== 62 && c !== 34 && c !== 39) continue;
    out += `${text.slice(last, i)}&#${c};`;
    last = i + 1;
  }
  return out + text.slice(last);
}

/** One line of the log as Markdown (ending in a blank line), or "" when it shows nothing. */
export function lineMarkdown(
  n: number,
  raw: string,
  json: Record<string, unknown> | null,
  cut: number | null = null,
): string {
  const piece = pieceOf(n, raw, json, cut);
  const out: string[] = [];
  if (piece.heading) out.push(`## ${piece.heading}`, "");
  for (const b of piece.blocks) {
    if (b.kind === "text") out.push(b.text, "");
    else if (b.kind === "code") out.push(fence(b.text), b.text, fence(b.text), "");
    else {
      const f = fence(b.text);
      // The summary is HTML inside Markdown: escaped, so a tool's name cannot open a tag.
      out.push(
        "<details>",
        `<summary>${escapeHtml(b.summary ?? "")}</summary>`,
        "",
        f,
        b.text,
        f,
        "",
        "</details>",
        "",
      );
    }
  }
  return out.length ? `${out.join("\n")}\n` : "";
}

/** One line of the log as an HTML `<article>` (or "" when it shows nothing). */
export function lineHtml(
  n: number,
  raw: string,
  json: Record<string, unknown> | null,
  cut: number | null = null,
): string {
  const piece = pieceOf(n, raw, json, cut);
  if (!piece.heading && piece.blocks.length === 0) return "";
  const role = piece.role && ROLES[piece.role] ? ` ${piece.role}` : "";
  let out = `<article class="line${role}" id="line-${n}">`;
  if (piece.heading) out += `<h2><a href="#line-${n}">${escapeHtml(piece.heading)}</a></h2>`;
  for (const b of piece.blocks) {
    if (b.kind === "text") out += `<div class="text">${escapeHtml(b.text)}</div>`;
    else if (b.kind === "code") out += `<pre>${escapeHtml(b.text)}</pre>`;
    else
      out += `<details${b.error ? ' class="error"' : ""}><summary>${escapeHtml(b.summary ?? "")}</summary><pre>${escapeHtml(b.text)}</pre></details>`;
  }
  return `${out}</article>\n`;
}

/** The HTML file's head: inline styles for light and dark (`prefers-color-scheme`), no script, nothing fetched. */
export function htmlHead(title: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(title)}</title>
<style>
:root { color-scheme: light dark; --bg: #ffffff; --fg: #18181b; --muted: #52525b; --line: #e4e4e7; --user: #eff6ff; --code: #f4f4f5; --err: #b91c1c; --link: #1e40af; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #18181b; --fg: #f4f4f5; --muted: #a1a1aa; --line: #3f3f46; --user: #172554; --code: #27272a; --err: #fca5a5; --link: #93c5fd; }
}
body { margin: 0 auto; max-width: 56rem; padding: 1.5rem; background: var(--bg); color: var(--fg); font: 15px/1.5 system-ui, sans-serif; }
h1 { font-size: 1.4rem; }
header p { color: var(--muted); }
.line { border-top: 1px solid var(--line); padding: 0.5rem 0.75rem; }
.line.user { background: var(--user); }
h2 { font-size: 0.85rem; margin: 0 0 0.25rem; color: var(--muted); }
h2 a { color: inherit; text-decoration: none; }
.text { white-space: pre-wrap; overflow-wrap: anywhere; }
pre { background: var(--code); padding: 0.5rem; overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; font: 13px/1.4 ui-monospace, monospace; }
summary { cursor: pointer; font-family: ui-monospace, monospace; font-size: 0.85rem; }
details.error summary { color: var(--err); font-weight: 600; }
a { color: var(--link); }
</style>
</head>
<body>
`;
}

/** The title and facts above the lines of an HTML export. */
export function htmlIntro(title: string, facts: string): string {
  return `<header><h1>${escapeHtml(title)}</h1><p>${escapeHtml(facts)}</p></header>\n<main>\n`;
}

/** The end of an HTML export, with the sentence saying where and why it stopped early, if it did. */
export function htmlTail(note: string | null): string {
  return `${note ? `<p role="alert" class="error">${escapeHtml(note)}</p>\n` : ""}</main>\n</body>\n</html>\n`;
}
