import { chmod, mkdir, readdir, symlink, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { freshHomePerTest } from "../../test-support/memory/test-home";
import { memoryText, putFile } from "../../test-support/memory/testing";
import {
  chatPayload,
  createMemory,
  listAllProblems,
  listSet,
  listWorkspaces,
  payloadNote,
  readMemory,
  readSettings,
  tokenBudgets,
  writeSettings,
} from ".";

let home: string;
freshHomePerTest((h) => (home = h));

describe("listing a set", () => {
  it("lists memories in payload order, problems with exact messages and lines, and names that are not memories", async () => {
    await putFile(
      home,
      "memory/global/0000000b",
      memoryText("B", "b", "enabled: true\nsource: ai\ncreated: 2026-01-02T00:00:00Z\n"),
    );
    await putFile(
      home,
      "memory/global/0000000a",
      memoryText("A", "a", "enabled: true\nsource: user\ncreated: 2026-01-03T00:00:00Z\n"),
    );
    await putFile(home, "memory/global/00000001", memoryText("No date", "n"));
    await putFile(home, "memory/global/0000000c", "---\ntitle: A\ntitle: B\n---\nx");
    await putFile(home, "memory/global/notes.txt", "hello");
    await putFile(home, "memory/global/0000000C", memoryText("upper", "x"));
    await putFile(home, "memory/global/.0000000a.tmp-0123456789ab", "torn");
    await mkdir(join(home, "memory/global/0000000d"));
    const set = await listSet(home, null);
    expect(set.memories.map((m) => [m.id, m.title, m.author])).toEqual([
      ["0000000b", "B", "ai"],
      ["0000000a", "A", "user"],
      ["00000001", "No date", "user"],
    ]);
    expect(set.problems).toEqual([
      {
        id: "0000000c",
        path: "memory/global/0000000c",
        message: "The frontmatter is not valid YAML: Map keys must be unique",
        line: 3,
      },
      { id: "0000000d", path: "memory/global/0000000d", message: "The file cannot be read: it is a folder." },
    ]);
    expect(set.ignored).toEqual(["0000000C", "notes.txt"]);
  });

  it("reports the size problem before reading, with the limit from settings", async () => {
    await writeSettings(home, { fileMaxBytes: 1024 });
    await putFile(home, "memory/global/0000000a", memoryText("A", "x".repeat(1100)));
    expect((await listSet(home, null)).problems[0]?.message).toBe("The file is larger than 1024 bytes.");
  });

  it.skipIf(process.getuid?.() === 0)("reports a file it may not read", async () => {
    const path = await putFile(home, "memory/global/0000000a", memoryText("A", "x"));
    await chmod(path, 0o000);
    expect((await listSet(home, null)).problems[0]?.message).toMatch(
      /^The file cannot be read: the system answered "permission denied" \(EACCES\): Oda Admin runs as .* with mode 0000\./,
    );
  });

  it("reads one memory: counts, bytes, tokens, sha256", async () => {
    const raw = memoryText("Reply  language", "  Réponds en points. 😀 ");
    await putFile(home, "memory/workspaces/ws.1/0000000a", raw);
    const m = await readMemory(home, "ws.1", "0000000a");
    expect(m).toMatchObject({
      ok: true,
      title: "Reply language",
      text: "Réponds en points. 😀",
      titleChars: 14,
      textChars: 20,
      tokens: 5,
      bytes: Buffer.byteLength(raw),
      raw,
      path: "memory/workspaces/ws.1/0000000a",
    });
    expect(m.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("removes leftover temp files older than a minute, never listing them", async () => {
    const tmp = await putFile(home, "memory/global/.0000000a.tmp-0123456789ab", "torn");
    await utimes(tmp, new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));
    await putFile(home, "memory/global/0000000a", memoryText("A", "a"));
    expect((await listSet(home, null)).ignored).toEqual([]);
    await new Promise((r) => setTimeout(r, 50));
    expect(await readdir(join(home, "memory/global"))).toEqual(["0000000a"]);
  });
});

describe("settings", () => {
  it("uses defaults for a missing file and reports bad values, using their defaults", async () => {
    expect((await readSettings(home)).problems).toEqual([]);
    await writeFile(
      join(home, "settings.json"),
      JSON.stringify({
        memory: { titleMaxChars: 19, textMaxChars: "2000", versionsKept: 100, chatMaxTokens: 500.5 },
        sessions: { compress: "no" },
      }),
    );
    const s = await readSettings(home);
    expect(s.limits).toEqual({
      titleMaxChars: 120,
      textMaxChars: 2000,
      fileMaxBytes: 65536,
      chatMaxTokens: 8000,
      versionsKept: 100,
    });
    expect(s.problems.map((p) => p.message)).toEqual([
      "memory.titleMaxChars must be a whole number from 20 to 1000; 19 is not. The default 120 is used.",
      'memory.textMaxChars must be a whole number from 100 to 100000; "2000" is not. The default 2000 is used.',
      "memory.chatMaxTokens must be a whole number from 500 to 200000; 500.5 is not. The default 8000 is used.",
      'sessions.compress must be true or false; "no" is not. The default true is used.',
    ]);
    const all = await listAllProblems(home);
    expect(all.length).toBe(4);
    expect(all[0]).toMatchObject({ path: "settings.json" });
  });

  it("refuses to save a value out of range, and saves one in range keeping other keys", async () => {
    await writeFile(join(home, "settings.json"), JSON.stringify({ other: 1, sessions: { compress: false } }));
    await expect(writeSettings(home, { versionsKept: 101 })).rejects.toMatchObject({
      message: "memory.versionsKept must be a whole number from 2 to 100; 101 is not.",
      field: "versionsKept",
    });
    const s = await writeSettings(home, { versionsKept: 2 });
    expect([s.limits.versionsKept, s.compress]).toEqual([2, false]);
  });
});

describe("what a chat receives", () => {
  it("sends enabled, problem-free memories: global first, then the workspace's", async () => {
    await putFile(home, "memory/global/0000000a", memoryText("G", "global text"));
    await putFile(home, "memory/global/0000000b", memoryText("Off", "x", "enabled: false\nsource: user\n"));
    await putFile(home, "memory/workspaces/w/0000000c", memoryText("W", "ws text"));
    await putFile(home, "memory/workspaces/w/0000000d", "broken");
    const p = await chatPayload(home, "w");
    expect(p.text).toBe("## G\nglobal text\n\n## W\nws text");
    expect(p.tokens).toBe(Math.ceil(p.text.length / 4));
    expect(p.excluded).toEqual([
      { id: "0000000b", workspace: null, title: "Off", reason: "off" },
      {
        id: "0000000d",
        workspace: "w",
        reason: "problem",
        message: "The file does not start with a --- frontmatter block.",
      },
    ]);
    expect((await chatPayload(home, null)).text).toBe("## G\nglobal text");
    expect(await listWorkspaces(home)).toEqual(["w"]);
    expect(await tokenBudgets(home)).toEqual([
      { workspace: null, globalTokens: 4, workspaceTokens: 0, tokens: 4, limit: 8000 },
      { workspace: "w", globalTokens: 4, workspaceTokens: 3, tokens: 8, limit: 8000 },
    ]);
  });

  it("builds the note for a running chat after a change", async () => {
    const before = await chatPayload(home, null);
    await createMemory(home, null, { title: "New", text: "fresh" });
    expect(payloadNote(before, await chatPayload(home, null))).toBe(
      "Your memory has changed.\n\nAdded:\n\n## New\nfresh\n\nThis applies from now on; the rest of your memory is unchanged.",
    );
  });
});

describe("hostile names and paths", () => {
  const bad = ["../x", "..", ".", "%2e%2e", "a/b", "a\0b", "x".repeat(300), "-lead", "", "/etc"];

  it("refuses ids and workspace keys that are not the contract's patterns, before any file call", async () => {
    for (const key of bad) {
      await expect(listSet(home, key)).rejects.toMatchObject({ code: "invalid_name" });
      await expect(createMemory(home, key, { title: "t", text: "x" })).rejects.toMatchObject({ code: "invalid_name" });
    }
    for (const id of [...bad, "0000000A", "0000000", "000000000"]) {
      await expect(readMemory(home, null, id)).rejects.toMatchObject({ code: "invalid_name" });
    }
    expect(await readdir(home)).toEqual([]);
  });

  it("never follows a symlink out of the home", async () => {
    const outside = join(home, "..", "outside");
    await mkdir(outside);
    await writeFile(join(outside, "0000000a"), memoryText("Secret", "outside"));
    await mkdir(join(home, "memory/workspaces"), { recursive: true });
    await symlink(outside, join(home, "memory/workspaces/evil"));
    await mkdir(join(home, "memory/global"), { recursive: true });
    await symlink(join(outside, "0000000a"), join(home, "memory/global/0000000b"));
    await expect(listSet(home, "evil")).rejects.toMatchObject({ code: "outside_root" });
    await expect(createMemory(home, "evil", { title: "t", text: "x" })).rejects.toMatchObject({ code: "outside_root" });
    expect((await listSet(home, null)).problems).toEqual([
      {
        id: "0000000b",
        path: "memory/global/0000000b",
        message: "The file cannot be read: it links outside the Oda home.",
      },
    ]);
    await expect(readMemory(home, null, "0000000b")).rejects.toMatchObject({ code: "outside_root" });
    expect(await readdir(outside)).toEqual(["0000000a"]);
    const problems = await listAllProblems(home);
    expect(problems.map((p) => p.path)).toEqual(["memory/global/0000000b", "memory/workspaces/evil"]);
  });
});
