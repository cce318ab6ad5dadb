/**
 * The CLI on top of lib/memory, through the real `bin/oda-admin` (kept here
 * because vitest's include list has no `cli/` entry).
 */
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeHome, memoryText, putFile } from "../../test-support/memory/testing";

const bin = fileURLToPath(new URL("../../bin/oda-admin", import.meta.url));

function run(args: string[]): Promise<{ code: number; json: Record<string, unknown>; stdout: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { encoding: "utf8" }, (error, stdout) => {
      const code = error ? ((error as { code?: number }).code ?? 1) : 0;
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(stdout);
      } catch {}
      resolve({ code, json, stdout });
    });
  });
}

let home: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ home, cleanup } = await makeHome()));
afterAll(() => cleanup());

/** `oda-admin memory <words> --home <home> --workspace ws1 <flags> --json`, as most steps below run it. */
const inWs1 = (words: string[], ...flags: string[]) =>
  run(["memory", ...words, "--home", home, "--workspace", "ws1", ...flags, "--json"]);

describe("oda-admin memory", () => {
  it("creates, changes, lists, shows history, payload, and refuses with the exact sentence", async () => {
    const created = await inWs1(["create"], "--title", "Reply language", "--text", "Short.");
    expect(created.code).toBe(0);
    const id = (created.json.memory as { id: string }).id;
    expect(await readFile(join(home, "memory/workspaces/ws1", id), "utf8")).toMatch(
      /^---\ntitle: Reply language\nenabled: true\nsource: user\n/,
    );

    const same = await inWs1(["set", id], "--text", "Short.");
    expect(same.json).toMatchObject({
      ok: true,
      changed: false,
      message: "The memory already had that title and text; nothing was saved.",
    });

    const tooLong = await inWs1(["set", id], "--title", "t".repeat(121));
    expect(tooLong).toMatchObject({
      code: 1,
      json: {
        ok: false,
        error: {
          code: "refused",
          message: "A memory title is limited to 120 characters; this one has 121.",
          fieldErrors: { title: "A memory title is limited to 120 characters; this one has 121." },
        },
      },
    });

    const stale = await inWs1(["set", id], "--text", "x", "--expect", "0".repeat(64));
    // The same { code, message } a server action answers.
    expect(stale.json).toEqual({
      ok: false,
      error: {
        code: "conflict",
        message: "The memory could not be changed: its file changed after you opened it. Reload it and try again.",
      },
    });

    const changed = await inWs1(["set", id], "--text", "Longer text.", "--off");
    expect(changed.json).toMatchObject({ ok: true, changed: true, memory: { text: "Longer text.", enabled: false } });

    const history = await inWs1(["history", id]);
    expect((history.json.versions as { text: string; source: string }[]).map((v) => [v.source, v.text])).toEqual([
      ["settings", "Longer text."],
      ["settings", "Short."],
    ]);

    const list = await inWs1(["list"]);
    expect(list.json).toMatchObject({ ok: true, workspace: "ws1", problems: [], ignored: [], deleted: [] });

    const payload = await inWs1(["payload"]);
    expect(payload.json).toMatchObject({ ok: true, text: "", tokens: 0, limit: 8000 });

    const missing = await run(["memory", "show", "deadbeef", "--home", home, "--json"]);
    expect(missing).toMatchObject({
      code: 1,
      json: {
        ok: false,
        error: {
          code: "not_found",
          message: 'No memory with the id "deadbeef" exists in the global set.',
        },
      },
    });

    const hostile = await run(["memory", "show", "../../etc", "--home", home, "--workspace", "..", "--json"]);
    expect(hostile.code).toBe(1);
    expect(hostile.json.ok).toBe(false);
  }, 60_000);

  it("doctor lists every memory and settings problem with paths relative to the home, exiting 1", async () => {
    await putFile(home, "memory/global/0000000a", "---\ntitle: A\n---\nx");
    await putFile(home, "memory/workspaces/ws2/0000000b", memoryText("B", "b"));
    await putFile(home, "settings.json", JSON.stringify({ memory: { versionsKept: 1 } }));
    const doctor = await run(["doctor", "--home", home, "--json"]);
    expect(doctor.code).toBe(1);
    const memory = (doctor.json.sections as { name: string; problems: unknown[] }[]).find((s) => s.name === "memory");
    expect(memory?.problems).toEqual([
      {
        path: "settings.json",
        message: "memory.versionsKept must be a whole number from 2 to 100; 1 is not. The default 10 is used.",
      },
      { path: "memory/global/0000000a", message: "The frontmatter fields enabled, source are missing or invalid." },
    ]);
  }, 30_000);
});
