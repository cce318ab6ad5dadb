import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeHome, putFile } from "../../test-support/memory/testing";
import { fuzzSeeds } from "../../test-support/test-fuzz";
import { isOdaError } from "../errors";
import { realRootOf } from "../fs";
import {
  chatPayload,
  checkTokenLimit,
  countCodePoints,
  DEFAULT_LIMITS,
  MESSAGES,
  renderPayload,
  serialiseMemoryFile,
  tokenBudgets,
} from ".";
import { SETTLE_MS, settleClock } from "./file-cache";
import { checkMemoryId, checkWorkspace } from "./names";
import { clearParseCache, parseCacheStats } from "./read-file";

const realNow = settleClock.now;
beforeEach(() => clearParseCache());
afterEach(() => {
  settleClock.now = realNow;
  clearParseCache();
});

// titles and texts with astral characters (two UTF-16 units, one code point) and inner newlines
const word = fc.constantFrom("a", "bb", "Ω", "😀", "𝒳y", "tea", "line\nbreak", "  spaced  ");
const phrase = fc.array(word, { minLength: 1, maxLength: 6 }).map((ws) => ws.join(" "));
const memory = fc.record({
  title: phrase,
  text: phrase,
  enabled: fc.boolean(),
  created: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
  broken: fc.integer({ min: 0, max: 9 }).map((n) => n < 2),
});
type Memory = typeof memory extends fc.Arbitrary<infer T> ? T : never;
const set = fc.array(memory, { maxLength: 6 });
const homeShape = fc.record({ global: set, workspaces: fc.array(set, { maxLength: 3 }) });

const idOf = (s: number, i: number) => (s * 16 + i).toString(16).padStart(8, "0");
const keyOf = (w: number) => `ws-${w}`;

async function writeHome(home: string, shape: { global: Memory[]; workspaces: Memory[][] }): Promise<void> {
  const sets: [string, Memory[]][] = [
    ["memory/global", shape.global],
    ...shape.workspaces.map((ms, w): [string, Memory[]] => [`memory/workspaces/${keyOf(w)}`, ms]),
  ];
  for (const [s, [folder, ms]] of sets.entries()) {
    await mkdir(join(home, folder), { recursive: true }); // an empty workspace still has its chats
    for (const [i, m] of ms.entries()) {
      const raw = m.broken
        ? "no frontmatter here"
        : serialiseMemoryFile(
            {
              title: m.title,
              enabled: m.enabled,
              source: "user",
              ...(m.created === undefined ? {} : { created: new Date(Date.UTC(2026, 0, 1 + m.created)).toISOString() }),
            },
            m.text,
          );
      await putFile(home, `${folder}/${idOf(s, i)}`, raw);
    }
  }
}

/** The check as the contract states it, from whole rendered payloads: the sentence of the first chat refused, or null. */
async function referenceCheck(
  home: string,
  keys: string[],
  workspace: string | null,
  id: string,
  next: { title: string; text: string } | null,
  limit: number,
): Promise<string | null> {
  // Every chat pushed over the limit; the refusal names the fullest (ties: no workspace, then keys in order).
  const over: { chat: string | null; v: number }[] = [];
  for (const chat of workspace === null ? [null, ...keys] : [workspace]) {
    const payload = await chatPayload(home, chat);
    const items = payload.included.filter((m) => !(m.id === id && m.workspace === workspace));
    if (next) items.push({ id, workspace, ...next });
    const before = countCodePoints(payload.text);
    const after = countCodePoints(renderPayload(items));
    const v = Math.ceil(after / 4);
    if (v > limit && after > before) over.push({ chat, v });
  }
  over.sort((x, y) => y.v - x.v || (x.chat === null ? -1 : y.chat === null ? 1 : x.chat < y.chat ? -1 : 1));
  const worst = over[0];
  return worst
    ? MESSAGES.overTokens(worst.chat === null ? "no workspace" : `workspace ${worst.chat}`, worst.v, limit)
    : null;
}

describe("payload sizes by arithmetic", () => {
  it.each(fuzzSeeds(1505))(
    "equal ceil(code points / 4) of the rendered payload, and the token check refuses exactly as the contract's rule ($label seed $seed)",
    async ({ label, seed }) => {
      await fc.assert(
        fc.asyncProperty(
          homeShape,
          fc.record({
            set: fc.nat(),
            member: fc.nat(),
            next: fc.option(fc.record({ title: phrase, text: phrase }), { nil: null }),
            // or the memory's own text grown by a few code points: the smallest changes that can cross a limit
            grow: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
            // the limit sits a few tokens around what one chat receives now: refusals hinge on the last code point
            limitChat: fc.nat(),
            limitSlack: fc.integer({ min: -3, max: 3 }),
          }),
          fc.boolean(),
          async (shape, change, warm) => {
            const { home, cleanup } = await makeHome();
            // warm: every file counts as settled, so the second pass below runs from the cache
            settleClock.now = warm ? () => Date.now() + 10 * SETTLE_MS : realNow;
            try {
              await writeHome(home, shape);
              const keys = shape.workspaces.map((_, w) => keyOf(w));
              const setCount = keys.length + 1;
              const s = change.set % setCount;
              const workspace = s === 0 ? null : (keys[s - 1] as string);
              const members = s === 0 ? shape.global : (shape.workspaces[s - 1] as Memory[]);
              const id = idOf(s, change.member % (members.length + 1)); // one past the end: a new memory
              const member = members[change.member % (members.length + 1)];
              const norm = (m: { title: string; text: string }) => ({
                title: m.title.replace(/\s+/g, " ").trim(),
                text: m.text.trim(),
              });
              const next =
                change.grow !== undefined && member
                  ? { ...norm(member), text: `${norm(member).text}${"😀".repeat(change.grow)}` }
                  : change.next && norm(change.next);
              const chats = [null, ...keys];
              const around = (await chatPayload(home, chats[change.limitChat % chats.length] ?? null)).tokens;
              const limit = Math.max(1, around + change.limitSlack);
              const limits = { ...DEFAULT_LIMITS, chatMaxTokens: limit };
              const expected = await referenceCheck(home, keys, workspace, id, next, limit);
              for (let pass = 0; pass < 2; pass++) {
                const budgets = await tokenBudgets(home);
                for (const [i, chat] of [null, ...keys].entries()) {
                  const payload = await chatPayload(home, chat);
                  expect(payload.tokens).toBe(Math.ceil(countCodePoints(payload.text) / 4));
                  expect(budgets[i]?.tokens).toBe(payload.tokens);
                  expect(budgets[i]?.workspace).toBe(chat);
                }
                const place = { workspace: checkWorkspace(workspace), id: checkMemoryId(id) };
                const got = await checkTokenLimit({ home, realHome: realRootOf(home), limits, place }, next).then(
                  () => null,
                  (e: unknown) => (isOdaError(e) ? e.message : String(e)),
                );
                expect(got).toBe(expected);
              }
              if (warm && shape.global.length) expect(parseCacheStats.hits).toBeGreaterThan(0);
            } finally {
              await cleanup();
            }
          },
        ),
        { numRuns: label === "fixed" ? 150 : 75, seed },
      );
    },
    120_000,
  );
});
