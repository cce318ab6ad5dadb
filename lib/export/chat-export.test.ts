import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../test-support/chats/test-helpers";
import { createChat } from "../../test-support/chats/testing";
import { runMain as run } from "../../test-support/run-cli";
import { exportChat } from "./chat-export";

const T = "2026-11-29T18:";

/** A chat with prose, code, a tool call and its failed result, a memory and a secret or two. */
async function richChat(dir: string) {
  const w = createChat(dir, { id: "c-x", cwd: "/home/ana/reports", created: `${T}00:00.000Z` });
  await w.appendEvents([
    { type: "memory", ts: `${T}00:00.500Z`, mode: "full", text: "Reply briefly." },
    {
      type: "message",
      ts: `${T}00:01.000Z`,
      role: "user",
      content: [{ type: "text", text: "Mail ana@example.com the <b>summary</b>:\n```sh\nls ~\n```" }],
    },
    {
      type: "message",
      ts: `${T}00:02.000Z`,
      role: "assistant",
      model: "oda-large",
      content: [
        { type: "text", text: "Reading it." },
        { type: "tool_use", id: "tu-1", name: "read_file", input: { path: "/home/ana/reports/q3.md" } },
      ],
      usage: { input_tokens: 5, output_tokens: 3 },
    },
    {
      type: "message",
      ts: `${T}00:03.000Z`,
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "tu-1", content: "no such file", is_error: true }],
    },
    { type: "title", ts: `${T}00:04.000Z`, title: "Q3 mail" },
  ]);
  await w.close();
  return w;
}

async function exported(dir: string, ...args: string[]) {
  return run("chat", "export", "c-x", "--logs", dir, ...args);
}

describe("chat export", () => {
  it("writes Markdown with roles, times, code blocks and tool calls folded in details", async () => {
    const dir = tempDir();
    await richChat(dir);
    const { code, out, err } = await exported(dir, "--format", "md");
    expect(err).toBe("");
    expect(code).toBe(0);
    expect(out).toContain("# Chat c-x\n\nExported from session.v4.jsonl.zstd.");
    expect(out).toContain(
      `## User · ${T}00:01.000Z\n\nMail ana@example.com the <b>summary</b>:\n\`\`\`sh\nls ~\n\`\`\``,
    );
    expect(out).toContain(`## Assistant · ${T}00:02.000Z · oda-large\n\nReading it.`);
    // The tool call's input holds no backtick run: a fence of three; the text above had one of three, but
    // it is prose, not fenced again.
    expect(out).toContain(
      '<details>\n<summary>Tool call: read_file (tu-1)</summary>\n\n```\n{\n  "path": "/home/ana/reports/q3.md"\n}\n```\n\n</details>',
    );
    expect(out).toContain("<summary>Tool result (error) for tu-1</summary>\n\n```\nno such file\n```");
    expect(out).toContain("<summary>Memory sent (full) · ");
    expect(out).toContain("Title: Q3 mail");
    // The same command under the "session" words.
    expect((await run("session", "export", "c-x", "--logs", dir, "--format", "md")).out).toBe(out);
  });

  it("writes one HTML file with its styles inline, light and dark, no script and nothing to fetch", async () => {
    const dir = tempDir();
    await richChat(dir);
    const { code, out } = await exported(dir, "--format", "html");
    expect(code).toBe(0);
    expect(out.startsWith("<!doctype html>")).toBe(true);
    expect(out.trimEnd().endsWith("</html>")).toBe(true);
    expect(out).toContain("@media (prefers-color-scheme: dark)");
    expect(out).not.toMatch(/<script|<link|<img|src=|url\(/i);
    // The user's markup is text, not markup.
    expect(out).toContain("Mail ana@example.com the &#60;b&#62;summary&#60;/b&#62;:");
    expect(out).toContain(
      '<details class="error"><summary>Tool result (error) for tu-1</summary><pre>no such file</pre>',
    );
  });

  it("--redact replaces what a support bundle replaces, with its placeholders, and says what it replaced", async () => {
    const dir = tempDir();
    await richChat(dir);
    const md = await exported(dir, "--format", "md", "--redact", "--keyword", "Q3");
    expect(md.code).toBe(0);
    expect(md.out).not.toContain("ana@example.com");
    expect(md.out).toContain("Mail <email-1> the");
    expect(md.out).toContain('"path": "/home/user-1/reports/<keyword-1>.md"');
    expect(md.out).toContain("Title: <keyword-1> mail");
    expect(md.err).toMatch(/^Replaced: .*email 1.*\.$/m);
    const jsonl = await exported(dir, "--format", "jsonl", "--redact");
    const lines = jsonl.out.split("\n");
    expect(lines).toHaveLength(6);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    expect(jsonl.out).not.toContain("ana@example.com");
  });

  it("writes JSONL byte for byte when not redacted, to a new file only", async () => {
    const dir = tempDir();
    await richChat(dir);
    const file = join(dir, "out.jsonl");
    const { code, err } = await exported(dir, "--format", "jsonl", "-o", file);
    expect(code).toBe(0);
    expect(err).toBe(`Wrote ${file}: 6 lines of session.v4.jsonl.zstd.`);
    const plain = await run("session", "show", "c-x", "--logs", dir, "--raw", "--count", "100");
    expect(readFileSync(file, "utf8")).toBe(`${plain.out}\n`);
    const again = await exported(dir, "--format", "jsonl", "-o", file);
    expect(again.code).not.toBe(0);
    expect(again.err).toContain(`${file} already exists; give another file name.`);
    expect(readFileSync(file, "utf8")).toBe(`${plain.out}\n`);
  });

  it("refuses an unknown format and leaves no file behind", async () => {
    const dir = tempDir();
    await richChat(dir);
    const file = join(dir, "out.txt");
    const { code, err } = await exported(dir, "--format", "pdf", "-o", file);
    expect(code).not.toBe(0);
    expect(err).toContain('--format takes md, html, jsonl; "pdf" is none of them.');
    expect(existsSync(file)).toBe(false);
  });

  it("ends with the reason when the log stops decoding, after every line before it", async () => {
    const chunks = [Buffer.from('{"type":"message","role":"user","content":"one"}\n{"type":"mess')];
    async function* broken() {
      yield* chunks;
      const { OdaError } = await import("../errors");
      throw new OdaError("unusable", "The log's zstd frame at byte 10 is damaged.");
    }
    const out: string[] = [];
    const result = await exportChat(broken(), (p) => void out.push(String(p)), {
      format: "md",
      id: "c",
      logName: "session.v4.jsonl.zstd",
    });
    expect(result.error).toBe("The log's zstd frame at byte 10 is damaged.");
    expect(out.join("")).toContain("## User\n\none\n");
    expect(out.join("")).toMatch(/> The export stops here: The log's zstd frame at byte 10 is damaged\.\n$/);
  });
});
