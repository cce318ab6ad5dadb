import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runHeapChild } from "../../test-support/heap-child";
import { tempFolder } from "../../test-support/test-temp";

/**
 * What a first build's scan holds per chat from its start to its end, measured as the slope between a small
 * and a larger folder in child processes after full collections: about 0.4 KB when every new chat was kept
 * as its location (id, folder, group, working folder, path: 672 MiB at the peak of a million-chat build),
 * its folder name and its place in the walk now (`ChangedChats` in scan.ts).
 */
const PER_CHAT_BOUND = 120;
/**
 * The most the folder's walk holds per chat while it walks (the heap as each folder is listed): about 80 bytes
 * with its map of every id (to catch a chat stored twice: most of the walk's peak at a million chats), about
 * 43 with each name a string of its own and no map, about 6 with each group's names packed in one string (their
 * ends are off the heap); chats stored twice are found after the walk (`folder-duplicates.ts`).
 */
const WALK_PER_CHAT_BOUND = 25;
const SMALL = 2_000;
/**
 * The heap after full collections still moves by up to about 300 KB between two runs of the same walk (280 KB
 * against 5 KB at 12,000 chats in session 42, which once made a slope of 27 bytes a chat over 10,000): over
 * 40,000 chats that is under 8 bytes a chat, well inside the bounds and well under what they catch.
 */
const LARGE = 42_000;

function measure(n: number): { held: number; walkPeak: number; changed: number; added: number; last: string } {
  return runHeapChild(join("search-index", "scan-memory-child.ts"), [tempFolder("oda-scan-memory-"), String(n)]);
}

describe("a first build's scan of the log folder", () => {
  it("holds each new chat's place in the walk, not its location, and walks with no map of ids", () => {
    const small = measure(SMALL);
    const large = measure(LARGE);
    expect(large).toMatchObject({ changed: LARGE, added: LARGE });
    expect(large.last).toMatch(/^chat-\d+$/);
    const perChat = (large.held - small.held) / (LARGE - SMALL);
    expect(perChat, `${perChat.toFixed(0)} bytes of heap per chat`).toBeLessThan(PER_CHAT_BOUND);
    const walkPerChat = (large.walkPeak - small.walkPeak) / (LARGE - SMALL);
    expect(walkPerChat, `${walkPerChat.toFixed(0)} bytes of heap per chat in the walk`).toBeLessThan(
      WALK_PER_CHAT_BOUND,
    );
  }, 120_000);
});
