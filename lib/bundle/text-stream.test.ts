import { describe, expect, it } from "vitest";
import { REDACT_KINDS } from "./detectors";
import { LongLine } from "./long-line";
import { Redactor } from "./redactor";
import { PIECE_CHARS } from "./text-stream";

/** A long line fed to `LongLine` in 64 KiB pieces (as the log reader hands them), and what came out. */
function through(line: string, dropText = false): { out: string; redactor: Redactor; changed: boolean } {
  const redactor = new Redactor({ homes: [], hosts: [], keywords: ["falconx"] }, new Set([...REDACT_KINDS, "keyword"]));
  const parts: string[] = [];
  const long = new LongLine(redactor, dropText, (t) => parts.push(t));
  const bytes = Buffer.from(line);
  for (let at = 0; at < bytes.length; at += 65536) long.push(bytes.subarray(at, at + 65536));
  long.end();
  return { out: parts.join(""), redactor, changed: long.changed };
}

const words = (n: number) => "plain words here ".repeat(Math.ceil(n / 17)).slice(0, n);
const EMAIL = "ana.quist@example.org";

describe("a long line streamed through the redactor", () => {
  it("redacts a line that is not JSON as text, a value across a cut included", () => {
    const line = `not json ${EMAIL} ${words(PIECE_CHARS - 40)} mail ${EMAIL} ${words(PIECE_CHARS)} FalconX end`;
    const { out, changed } = through(line);
    expect(changed).toBe(true);
    expect(out).not.toContain(EMAIL);
    expect(out.toLowerCase()).not.toContain("falconx");
    expect(out).toBe(line.replaceAll(EMAIL, "<email-1>").replace("FalconX", "<keyword-1>"));
  });

  it("keeps JSON keys that give a line its shape, reads escapes, and writes unchanged strings byte for byte", () => {
    const value = `${words(PIECE_CHARS + 100)}\\n\\u0061na.quist@example.org\\t${words(300)}`;
    const line = `{"type":"message", "ts":"2026-11-01T00:00:00.000Z","falconx":1,"content":[{"type":"text","text":"${value}"}],"note":"caf\\u00e9"}`;
    const { out } = through(line);
    const parsed = JSON.parse(out);
    expect(Object.keys(parsed)).toEqual(["type", "ts", "<keyword-1>", "content", "note"]);
    expect(parsed.content[0].text).toBe(JSON.parse(`"${value}"`).replace(EMAIL, "<email-1>"));
    // Strings that did not change keep their bytes, escapes and spacing included.
    expect(out.startsWith('{"type":"message", "ts":"2026-11-01T00:00:00.000Z",')).toBe(true);
    expect(out.endsWith('"note":"caf\\u00e9"}')).toBe(true);
  });

  it("with --drop-text fills the long text with x's of its encoded length, and only it", () => {
    const text = `${words(PIECE_CHARS * 2)}é"`;
    const line = JSON.stringify({ type: "message", role: "user", content: [{ type: "text", text }], model: "m" });
    const { out } = through(line, true);
    expect(Buffer.byteLength(out)).toBe(Buffer.byteLength(line));
    const parsed = JSON.parse(out);
    expect(parsed.content[0].text).toMatch(/^x+$/);
    expect(parsed.model).toBe("m");
    expect(parsed.role).toBe("user");
  });
});
