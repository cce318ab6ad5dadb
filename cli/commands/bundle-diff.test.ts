import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readBundle } from "../../lib/bundle";
import { locateChat } from "../../lib/chats/folder";
import { CHAT_IDS, plantSecrets } from "../../test-support/bundle/testing";
import { createChat, openChat } from "../../test-support/chats/testing";
import { runMain as run } from "../../test-support/run-cli";
import { tempFolder } from "../../test-support/test-temp";

const memory = (title: string, text: string, enabled = true) =>
  `---\ntitle: ${title}\nenabled: ${enabled}\nsource: user\ncreated: 2026-11-29T18:24:08.123Z\n---\n\n${text}\n`;

/** One installation bundled twice, with one change of each kind between the two bundles. */
async function twoBundles() {
  const base = tempFolder("oda-bundle-diff-");
  const roots = await plantSecrets(base);
  const make = async (file: string) => {
    const made = await run(
      "bundle",
      "create",
      "--home",
      roots.home,
      "--logs",
      roots.logs,
      "--all-chats",
      "--memory",
      "--no-redact",
      "-o",
      file,
    );
    expect(made.code, made.err).toBe(0);
    return file;
  };
  const before = await make(join(base, "before.tar.gz"));

  // A chat grows (its lock, held on another computer, set aside meanwhile), one is added, one is removed.
  const lock = join(locateChat(roots.logs, CHAT_IDS[0] as string).dir, "session.lock");
  const held = readFileSync(lock);
  rmSync(lock);
  const grown = await openChat(roots.logs, CHAT_IDS[0] as string);
  await grown.appendTurn({ user: "one more question", assistant: "one more answer", ts: "2026-12-01T09:00:00.000Z" });
  await grown.close();
  writeFileSync(lock, held);
  const added = createChat(roots.logs, { id: "c-added-later", cwd: null, created: "2026-12-01T11:00:00.000Z" });
  await added.appendTurn({ user: "hello", assistant: "hi", ts: "2026-12-01T11:00:00.000Z" });
  await added.close();
  rmSync(locateChat(roots.logs, CHAT_IDS[2] as string).dir, { recursive: true });
  // A memory is changed, one is added, and a problem file appears.
  const global = join(roots.home, "memory", "global");
  writeFileSync(join(global, "0000000a"), memory("Mail rules", "Answer within a day.\nSign with the team name."));
  writeFileSync(join(global, "0000000c"), memory("New one", "Brand new.", false));
  writeFileSync(join(global, "0000000d"), "no frontmatter here\n");
  // A setting changes.
  writeFileSync(join(roots.home, "settings.json"), JSON.stringify({ memory: { versionsKept: 20 } }));
  const after = await make(join(base, "after.tar.gz"));
  return { base, before, after };
}

describe("oda-admin bundle diff", () => {
  it("names each chat, problem, memory and setting that changed between two bundles", async () => {
    const { base, before, after } = await twoBundles();
    const result = await run("bundle", "diff", before, after, "--json");
    expect(result.code, result.err).toBe(0);
    const d = JSON.parse(result.out);
    expect(d.chats.added.map((c: { id: string }) => c.id)).toEqual(["c-added-later"]);
    expect(d.chats.removed.map((c: { id: string }) => c.id)).toEqual([CHAT_IDS[2]]);
    expect(d.chats.grown.map((c: { id: string }) => c.id)).toEqual([CHAT_IDS[0]]);
    expect(d.chats.grown[0].after.messages).toBe(d.chats.grown[0].before.messages + 2);
    expect(d.chats.shrunk).toEqual([]);
    expect(d.chats.same).toBe(1);

    // The removed chat's dead lock went away with it; the new problem file appeared.
    expect(d.problems.appeared).toEqual([
      { section: "memory", path: "memory/global/0000000d", message: expect.stringContaining("---") },
    ]);
    expect(d.problems.gone.map((p: { path: string }) => p.path)).toEqual([
      expect.stringContaining(CHAT_IDS[2] as string),
    ]);

    expect(d.memories.added).toEqual([{ set: "global", id: "0000000c", title: "New one", enabled: false }]);
    expect(d.memories.removed).toEqual([]);
    expect(d.memories.changed).toHaveLength(1);
    const changed = d.memories.changed[0];
    expect(changed).toMatchObject({ set: "global", id: "0000000a", title: "Mail rules", added: 2, removed: 1 });
    expect(changed.fields).toEqual([{ field: "title", old: "Mail ana.lopez@example.org", new: "Mail rules" }]);
    expect(d.settings.changed).toEqual([
      { key: "memory.versionsKept", before: 10, after: 20 },
      { key: "note", before: "ana.lopez@example.org", after: null },
    ]);
    expect(d.notes).toEqual([]);

    // The same comparison as a person reads it, and from a folder the first bundle was unpacked into.
    const unpacked = join(base, "unpacked");
    await readBundle(before, unpacked);
    const text = await run("bundle", "diff", unpacked, after);
    expect(text.code, text.err).toBe(0);
    expect(text.out).toContain("Chats: 1 added, 1 removed, 1 grown, 0 shrunk, 1 unchanged.");
    expect(text.out).toContain('  + c-added-later "hello": 2 messages');
    expect(text.out).toContain("Problems: 1 appeared, 1 went away,");
    expect(text.out).toContain("Memories: 1 added, 0 removed, 1 changed, 1 unchanged.");
    expect(text.out).toContain('      title: "Mail ana.lopez@example.org" → "Mail rules"');
    expect(text.out).toContain("      + Sign with the team name.");
    expect(text.out).toContain("  ~ memory.versionsKept: 10 → 20");
  });

  it("a bundle against itself differs in nothing", async () => {
    const { before } = await twoBundles();
    const d = JSON.parse((await run("bundle", "diff", before, before, "--json")).out);
    expect(d.chats).toMatchObject({ added: [], removed: [], grown: [], shrunk: [], same: 3 });
    expect(d.problems.appeared).toEqual([]);
    expect(d.problems.gone).toEqual([]);
    expect(d.problems.kept).toBeGreaterThan(0);
    expect(d.memories).toMatchObject({ added: [], removed: [], changed: [] });
    expect(d.settings.changed).toEqual([]);
  });

  it("refuses what is not a bundle with a sentence, and wants two", async () => {
    const base = tempFolder("oda-bundle-diff-");
    const notBundle = join(base, "notes.txt");
    writeFileSync(notBundle, "hello\n");
    const one = await run("bundle", "diff", notBundle);
    expect(one.code).toBe(2);
    expect(one.err).toContain("Give two bundles: oda-admin bundle diff BEFORE AFTER.");
    const bad = await run("bundle", "diff", notBundle, notBundle);
    expect(bad.code).not.toBe(0);
    expect(bad.err).toBe("The bundle cannot be read as a .tar.gz archive: incorrect header check.");
    const folder = await run("bundle", "diff", base, base);
    expect(folder.err).toContain(`${base} is a folder without a bundle's manifest.json in it.`);
    const missing = await run("bundle", "diff", join(base, "nope.tar.gz"), notBundle);
    expect(missing.err).toContain("does not exist; give a bundle file or an unpacked bundle's folder.");
  });
});
