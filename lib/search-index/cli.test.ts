import { describe, expect, it } from "vitest";
import { main } from "../../cli/main";
import { createChat, openChat, settleFolder } from "../../test-support/chats/testing";
import { tempIndexRoots } from "../../test-support/search-index/test-roots";
import { MISSING_ROOT } from "../roots";

// The CLI's search commands over real files: `oda-admin search`, `index refresh`, `index status`.

const newRoots = tempIndexRoots("oda-index-cli-");

async function run(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (t: string) => out.push(t), err: (t: string) => err.push(t) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("oda-admin search", () => {
  it("without an admin state, search, index and usage give the one sentence of a missing state, exit 2", async () => {
    const { logs } = newRoots();
    for (const argv of [["search", "x"], ["index", "status"], ["index", "refresh"], ["usage", "daily"], ["storage"]]) {
      const got = await run([...argv, "--logs", logs]);
      expect({ argv, ...got }).toEqual({ argv, code: 2, out: "", err: MISSING_ROOT.state });
    }
  });

  it("refreshes first, prints JSON with the inspector's urls, and refuses an unreadable query", async () => {
    const { logs, state } = newRoots();
    const w = createChat(logs, { id: "c/1 x", cwd: "/srv/app", created: "2026-11-20T09:00:00.000Z" });
    await w.appendTurn({ user: "the deploy failed", assistant: "check the pipeline", ts: "2026-11-20T09:01:00.000Z" });
    await w.close();
    const roots = ["--logs", logs, "--state", state];

    const first = await run(["search", "pipeline", ...roots, "--json"]);
    expect(first.code).toBe(0);
    const doc = JSON.parse(first.out);
    expect(doc).toMatchObject({ ok: true, totalHits: 1, refresh: { added: 1 } });
    expect(doc.groups[0].hits[0]).toMatchObject({
      line: 3,
      role: "assistant",
      text: "check the «pipeline»",
      url: `/chats/${encodeURIComponent("c/1 x")}?line=3`,
    });
    // No progress off a terminal (cli/script.test.ts shows it on one).
    expect(first.err).toBe("");

    const reopened = await openChat(logs, "c/1 x");
    await reopened.appendTurn({ user: "pipeline again", assistant: "ok", ts: "2026-11-21T09:00:00.000Z" });
    await reopened.close();
    // Written long before the refresh below (not racy), so the index is up to date after it.
    settleFolder(logs);
    const stale = await run(["search", "pipeline", ...roots, "--json", "--no-refresh"]);
    expect(JSON.parse(stale.out).totalHits).toBe(1);
    const refreshed = await run(["index", "refresh", ...roots]);
    expect(refreshed.out).toMatch(/1 chats, 0 added, 1 changed \(1 only grew\), 0 removed, 3 lines read/);
    const human = await run(["search", "pipeline", "--role", "user", ...roots, "--no-refresh"]);
    expect(human.out).toContain("line     5  user      «pipeline» again");

    const bad = await run(["search", '"unclosed', ...roots, "--no-refresh"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/^The search "\\"unclosed" cannot be read: a " is never closed\. /);
    // A query the engine cannot parse is refused naming what is wrong, never answered with no match.
    const open = await run(["search", "revenue", "AND", "(", ...roots, "--no-refresh", "--json"]);
    expect(open.code).toBe(2);
    expect(JSON.parse(open.out).error).toMatchObject({
      code: "bad_input",
      message:
        'The search "revenue AND (" cannot be read: a ( is never closed. Use words, "exact phrases", prefix*, AND, OR, NOT and parentheses, for example: deploy NOT "staging server".',
    });
    const status = await run(["index", "status", ...roots]);
    expect(status.out).toContain("The search index is up to date (1 chat).");
  });
});
