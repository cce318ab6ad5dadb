import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../cli/main";
import { tempDir } from "../../test-support/chats/test-helpers";
import { createChat, leaveDeadLock } from "../../test-support/chats/testing";
import { runMain as run } from "../../test-support/run-cli";

describe("oda-admin sessions list / session show / doctor", () => {
  it("lists a folder made by the writer, one entry per chat", async () => {
    const dir = tempDir("logs");
    const { code, out } = await run("sessions", "list", "--logs", dir, "--json");
    expect(code).toBe(0);
    const doc = JSON.parse(out);
    expect(doc.chats.map((c: { id: string }) => c.id)).toEqual(["c-2026-11-29-a1", "c-crash", "c-old/1"]);
    expect(doc.chats[0]).toEqual({
      id: "c-2026-11-29-a1",
      folder: "--%2Fhome%2Fana%2Freports--/c-2026-11-29-a1",
      cwd: "/home/ana/reports",
      format: 4,
      messages: 4,
      title: "Q3 sales summary",
      lastActivity: "2026-11-29T18:25:01.001Z",
      cached: true,
      cacheState: "cached",
      lock: "none",
      problems: [],
    });
    expect(doc.chats[1].problems[0]).toMatch(
      /^The log's last zstd frame is cut off at byte \d+; .* raw log: .*c-crash\/session\.v4\.jsonl\.zstd$/,
    );
  });

  it("streams --json: printed batch by batch, one chat per line, as one document", async () => {
    const dir = tempDir();
    for (let i = 0; i < 230; i++) {
      const w = createChat(dir, { id: `c-${String(i).padStart(3, "0")}`, cwd: "/home/ana/reports" });
      await w.appendTurn({ user: `question ${i}`, assistant: `answer ${i}` });
      await w.close();
    }
    const outs: string[] = [];
    const code = await main(["sessions", "list", "--logs", dir, "--json"], { out: (t) => outs.push(t), err: () => {} });
    expect(code).toBe(0);
    // The first 200 chats are printed before the last 30 are read: more than one write.
    expect(outs.length).toBeGreaterThan(2);
    const lines = outs.join("\n").split("\n");
    expect(lines).toHaveLength(230 + 2);
    // Each chat line is one entry, with the comma that separates it from the next.
    expect(JSON.parse((lines[1] as string).replace(/,$/, ""))).toMatchObject({
      id: "c-000",
      messages: 2,
      problems: [],
    });
    const doc = JSON.parse(outs.join("\n"));
    expect(doc.ok).toBe(true);
    expect(doc.problems).toEqual([]);
    expect(doc.chats.map((c: { id: string }) => c.id)).toEqual(
      Array.from({ length: 230 }, (_, i) => `c-${String(i).padStart(3, "0")}`),
    );
  }, 60_000);

  it("shows a chat's lines with numbers and byte offsets, the tail and the generations", async () => {
    const dir = tempDir("logs");
    const { code, out } = await run(
      "session",
      "show",
      "c-crash",
      "--logs",
      dir,
      "--from",
      "2",
      "--count",
      "2",
      "--json",
    );
    expect(code).toBe(0);
    const doc = JSON.parse(out);
    expect(doc.lines.map((l: { n: number }) => l.n)).toEqual([2, 3]);
    expect(doc.lines[0].offset).toBeGreaterThan(0);
    expect(doc.tail.state).toBe("cut-frame");
    expect(doc.generations).toEqual([
      expect.objectContaining({ name: "session.v4.jsonl.zstd", current: true, form: "zstd" }),
    ]);
    const raw = await run("session", "show", "c-crash", "--logs", dir, "--count", "1", "--raw");
    expect(JSON.parse(raw.out)).toMatchObject({ type: "session", id: "c-crash" });
  });

  it("prints a refusal's exact sentence and exits 1", async () => {
    const dir = tempDir();
    const w = createChat(dir, { id: "c1", cwd: null });
    await w.appendTurn({ user: "a", assistant: "b" });
    await w.close();
    const plain = join(w.dir, "session.v5.jsonl");
    writeFileSync(plain, "{}\n");
    const { code, err } = await run("session", "show", "c1", "--logs", dir);
    expect(code).toBe(1);
    expect(err).toBe(`${plain} is plain but this log folder keeps zstd-compressed logs. raw log: ${plain}`);
    const missing = await run("session", "show", "nope", "--logs", dir);
    expect(missing).toMatchObject({ code: 1, err: 'No chat with the id "nope" is in the log folder.' });
  });

  it("doctor lists every log problem and exits 1", async () => {
    const dir = tempDir("logs");
    const { code, out } = await run("doctor", "--logs", dir, "--json");
    expect(code).toBe(1);
    const section = JSON.parse(out).sections.find((s: { name: string }) => s.name === "chat logs");
    expect(section.problems).toEqual([
      {
        path: "--%2Ftmp--/c-crash/session.v4.jsonl.zstd",
        message: expect.stringMatching(/^The log's last zstd frame is cut off/),
      },
    ]);
  });

  it("doctor lists a discarded checkpoint with its reason and a stale lock with its holder", async () => {
    const dir = tempDir("logs");
    const chat = join(dir, "--%2Fhome%2Fana%2Freports--", "c-2026-11-29-a1");
    const cachePath = join(chat, "session.cache.json");
    const cache = JSON.parse(readFileSync(cachePath, "utf8"));
    cache.log.bytes += 10;
    writeFileSync(cachePath, JSON.stringify(cache));
    const holder = leaveDeadLock(join(dir, "_no-cwd", "c-old%2F1"));
    const { code, out } = await run("doctor", "--logs", dir, "--json");
    expect(code).toBe(1);
    const section = JSON.parse(out).sections.find((s: { name: string }) => s.name === "chat logs");
    expect(section.problems).toEqual(
      expect.arrayContaining([
        {
          path: "--%2Fhome%2Fana%2Freports--/c-2026-11-29-a1/session.cache.json",
          message: `The checkpoint does not match the log and was discarded: The checkpoint is ahead of the log: it counts ${cache.log.bytes} bytes, the log has ${cache.log.bytes - 10}. The details were rebuilt from the log.`,
        },
        {
          path: "_no-cwd/c-old%2F1/session.lock",
          message: `The session.lock is stale (held by process ${holder.pid} on ${holder.host}, started ${holder.startedAt}): Process ${holder.pid} is no longer running. Oda cannot write this chat until the lock file is removed.`,
        },
      ]),
    );
    expect(section.problems).toHaveLength(3);
    const text = await run("doctor", "--logs", dir);
    expect(text.out).toContain(
      `_no-cwd/c-old%2F1/session.lock: The session.lock is stale (held by process ${holder.pid}`,
    );
  });
});
