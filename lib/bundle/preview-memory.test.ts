import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runHeapChild } from "../../test-support/heap-child";

const base = mkdtempSync(join(tmpdir(), "oda-preview-memory-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/**
 * What the preview holds per chat, at most, measured as the slope between a small and a larger folder:
 * about 0.4 KiB now (the doctor's listing of the chats and the plan's id and folder of each), 1.5 KiB when it
 * held the plan and the staged entries of every file (200,000 files at 100,000 chats: more than the bundle
 * thread's 160 MB heap). The difference is measured after full collections, so nothing is left to chance.
 */
const PER_CHAT_BOUND = 800;
/**
 * A bundle must keep each file's entry (its manifest, first in the archive, names every hash) and the report's
 * files per kind: about 1.3 KiB a chat now, 2.2 KiB when its plan also held every planned file to the end.
 */
const BUNDLE_PER_CHAT_BOUND = 1800;
/** The longest JSON text a bundle makes, per chat: none grows with the chats (the manifest is written list by list). */
const MANIFEST_TEXT_PER_CHAT = 10;
const SMALL = 200;
const LARGE = 1400;
/**
 * The preview's slope is taken over more chats: its peak moves by up to about 0.3 MB between runs with what is
 * in flight at a sample (the logs read ahead), which over 1,200 chats alone measured 400 to 808 bytes a chat.
 */
const PREVIEW_LARGE = 2600;

/** The preview (or bundle) of `n` chats in a child process: the most its heap held above its start, and its counts. */
function measure(
  n: number,
  mode: "preview" | "bundle" = "preview",
): { peakAbove: number; longestJson: number; counts: { files: number; redactedFiles: number } } {
  // The scale benches' chat writer imports what a server would (bench/index-data.ts): hence the shims.
  return runHeapChild(join("bundle", "preview-memory-child.ts"), [join(base, `logs-${n}`), String(n), mode]);
}

describe("the Support page's preview of every chat, and a bundle", () => {
  it("holds counts, not an entry per file: its heap barely grows with the number of chats", () => {
    const small = measure(SMALL);
    const large = measure(PREVIEW_LARGE);
    // Every chat's log and checkpoint counted, and rewritten (their working folders are under /home).
    expect(large.counts.files).toBe(2 * PREVIEW_LARGE + 2);
    expect(large.counts.redactedFiles).toBe(2 * PREVIEW_LARGE);
    const perChat = (large.peakAbove - small.peakAbove) / (PREVIEW_LARGE - SMALL);
    expect(perChat, `${perChat.toFixed(0)} bytes of heap per chat`).toBeLessThan(PER_CHAT_BOUND);
  }, 120_000);

  it("and a bundle holds only what its manifest and report need, not every planned file too", () => {
    const small = measure(SMALL, "bundle");
    const large = measure(LARGE, "bundle");
    expect(large.counts.files).toBe(2 * LARGE + 2);
    const perChat = (large.peakAbove - small.peakAbove) / (LARGE - SMALL);
    expect(perChat, `${perChat.toFixed(0)} bytes of heap per chat`).toBeLessThan(BUNDLE_PER_CHAT_BOUND);
    // Nor does it make the manifest one string: it listed every file, and every rewritten one again per kind,
    // about 570 bytes of heap a chat at once (with the objects it was made from, past the bundle thread's
    // 160 MB at 100,000 chats). Now no JSON text grows with the chats.
    const textPerChat = (large.longestJson - small.longestJson) / (LARGE - SMALL);
    expect(textPerChat, `${textPerChat.toFixed(0)} bytes of JSON text per chat`).toBeLessThan(MANIFEST_TEXT_PER_CHAT);
    expect(large.longestJson).toBeLessThan(64 * 1024);
  }, 120_000);
});
