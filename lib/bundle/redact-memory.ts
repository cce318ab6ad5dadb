import type { Redactor } from "./redactor";

/**
 * A memory file (or a saved version of one) redacted: in the frontmatter only
 * the values are touched, so a keyword equal to a field name cannot break the
 * block; the text after it is redacted whole, or replaced with `x` of the same
 * byte length when texts are dropped (sizes and line ends stay).
 */
export function redactMemoryText(source: string, r: Redactor, dropText: boolean): string {
  const lines = source.split("\n");
  const bom = lines[0]?.startsWith("\uFEFF") ? "\uFEFF" : "";
  const first = bom ? (lines[0] as string).slice(1) : lines[0];
  let bodyFrom = 0;
  if (first?.replace(/\r$/, "") === "---") {
    const close = lines.findIndex((l, i) => i > 0 && l.replace(/\r$/, "") === "---");
    if (close > 0) {
      for (let i = 1; i < close; i++) lines[i] = redactFieldLine(lines[i] as string, r);
      bodyFrom = close + 1;
    }
  }
  for (let i = bodyFrom; i < lines.length; i++) {
    const line = lines[i] as string;
    lines[i] = dropText ? dropLine(line) : r.redactText(line);
  }
  return lines.join("\n");
}

/** `key: value` with only the value redacted; any other line redacted whole. */
function redactFieldLine(line: string, r: Redactor): string {
  const m = /^(\s*[A-Za-z_][A-Za-z0-9_-]*\s*:\s?)(.*)$/s.exec(line);
  return m ? `${m[1]}${r.redactText(m[2] as string)}` : r.redactText(line);
}

/** Every character but a carriage return becomes as many `x` as its UTF-8 bytes. */
function dropLine(line: string): string {
  return line.replace(/[^\r]/gu, (c) => "x".repeat(Buffer.byteLength(c)));
}

/** A run of text (not split into lines) with every character but line ends replaced by `x`s, byte for byte. */
export function dropRun(text: string): string {
  return text.replace(/[^\r\n]/gu, (c) => "x".repeat(Buffer.byteLength(c)));
}
