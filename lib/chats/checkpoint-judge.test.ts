import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempFolder } from "../../test-support/test-temp";
import { type Checkpoint, hashLogTail, judgeCheckpoint } from "./checkpoint";
import type { ChatIdentity } from "./details";

/**
 * The checkpoint rule (`docs/file-contract.md`, The chat list's checkpoint),
 * judged against a real file whose tail hash is computed apart from the code:
 * by `head -c | tail -c 4096 | sha256sum`, never by `hashLogTail` itself.
 */

const identity: ChatIdentity = {
  id: "c-2026-11-29-a1",
  created: "2026-11-29T18:24:08.123Z",
  cwd: "/home/ana/reports",
  continues: "c-2026-11-28-b2",
};
const NAME = "session.v4.jsonl.zstd";

/** sha256 of the last min(bytes, 4096) bytes before offset `bytes`, by coreutils. */
function shellTailHash(path: string, bytes: number): string {
  const out = execFileSync("sh", ["-c", 'head -c "$1" "$2" | tail -c 4096 | sha256sum', "sh", String(bytes), path], {
    encoding: "utf8",
  });
  return out.split(" ")[0] as string;
}

function checkpoint(bytes: number, tailSha256: string, over: Partial<ChatIdentity> = {}): Checkpoint {
  return {
    cacheFormat: 1,
    identity: { ...identity, ...over },
    log: { name: NAME, bytes, tailSha256 },
    checkpointAt: "2026-11-29T18:30:00.000Z",
    details: { title: "t", messages: 2, lastActivity: null, model: null, inputTokens: 0, outputTokens: 0 },
  };
}

function logOf(size: number): { path: string; size: number; name: string } {
  const path = join(tempFolder("oda-ckpt-judge-"), NAME);
  writeFileSync(path, randomBytes(size));
  return { path, size, name: NAME };
}

describe("judgeCheckpoint against a log longer than 4 KiB", () => {
  it("serves a checkpoint whose tail hash covers exactly the 4096 bytes before its offset", () => {
    const log = logOf(10_000);
    const hash = shellTailHash(log.path, 10_000);
    expect(hashLogTail(log.path, 10_000)).toBe(hash);
    expect(judgeCheckpoint(checkpoint(10_000, hash), identity, log)).toEqual({
      state: "cached",
      reason: "The checkpoint matches the log.",
      behindBytes: 0,
    });
  });

  it("a log grown past the checkpoint is behind, the hash still over the 4096 bytes before the offset", () => {
    const log = logOf(9_000);
    const hash = shellTailHash(log.path, 6_000);
    expect(judgeCheckpoint(checkpoint(6_000, hash), identity, log)).toEqual({
      state: "behind",
      reason: "The log has 3000 bytes more than the checkpoint counts.",
      behindBytes: 3000,
    });
  });

  it("a log shorter than 4 KiB is hashed whole", () => {
    const log = logOf(1_000);
    expect(judgeCheckpoint(checkpoint(1_000, shellTailHash(log.path, 1_000)), identity, log).state).toBe("cached");
  });

  it("a tail changed 4096 bytes before the offset discards; one changed 4097 bytes before does not", () => {
    const log = logOf(10_000);
    const hash = shellTailHash(log.path, 10_000);
    const bytes = execFileSync("cat", [log.path]);
    /** The original bytes with the one at `at` flipped. */
    const flip = (at: number) => {
      const copy = Buffer.from(bytes);
      copy[at] = (copy[at] as number) ^ 0xff;
      writeFileSync(log.path, copy);
    };
    flip(10_000 - 4096);
    expect(judgeCheckpoint(checkpoint(10_000, hash), identity, log)).toEqual({
      state: "discarded",
      reason: "The log's bytes before the checkpoint's offset no longer match its tail hash.",
      behindBytes: 0,
    });
    flip(9_999);
    expect(judgeCheckpoint(checkpoint(10_000, hash), identity, log).state).toBe("discarded");
    flip(10_000 - 4097);
    expect(judgeCheckpoint(checkpoint(10_000, hash), identity, log).state).toBe("cached");
  });
});

describe("judgeCheckpoint's identity and log rules", () => {
  const log = () => logOf(5_000);

  it("a checkpoint whose continues differs is discarded, naming both", () => {
    const l = log();
    const hash = shellTailHash(l.path, 5_000);
    expect(judgeCheckpoint(checkpoint(5_000, hash, { continues: null }), identity, l)).toEqual({
      state: "discarded",
      reason: "The checkpoint's continues null does not match the chat's \"c-2026-11-28-b2\".",
      behindBytes: 0,
    });
    expect(judgeCheckpoint(checkpoint(5_000, hash, { continues: "c-other" }), identity, l).reason).toBe(
      'The checkpoint\'s continues "c-other" does not match the chat\'s "c-2026-11-28-b2".',
    );
  });

  it("each other identity field that differs discards it, with its reason", () => {
    const l = log();
    const hash = shellTailHash(l.path, 5_000);
    expect(judgeCheckpoint(checkpoint(5_000, hash, { id: "c-x" }), identity, l).reason).toBe(
      'The checkpoint\'s id "c-x" does not match the chat\'s "c-2026-11-29-a1".',
    );
    expect(judgeCheckpoint(checkpoint(5_000, hash, { created: null }), identity, l).reason).toBe(
      "The checkpoint's created null does not match the chat's \"2026-11-29T18:24:08.123Z\".",
    );
    expect(judgeCheckpoint(checkpoint(5_000, hash, { cwd: "/home/bo" }), identity, l).reason).toBe(
      'The checkpoint\'s cwd "/home/bo" does not match the chat\'s "/home/ana/reports".',
    );
  });

  it("another newest log, or a log shorter than the checkpoint counts, discards it", () => {
    const l = log();
    const hash = shellTailHash(l.path, 5_000);
    expect(judgeCheckpoint(checkpoint(5_000, hash), identity, { ...l, name: "session.v5.jsonl.zstd" })).toEqual({
      state: "discarded",
      reason: "The checkpoint is for session.v4.jsonl.zstd, but the newest log is session.v5.jsonl.zstd.",
      behindBytes: 0,
    });
    expect(judgeCheckpoint(checkpoint(5_001, hash), identity, l)).toEqual({
      state: "discarded",
      reason: "The checkpoint is ahead of the log: it counts 5001 bytes, the log has 5000.",
      behindBytes: 0,
    });
  });

  it("uses the caller's tail hasher when given one", () => {
    const l = log();
    const seen: number[] = [];
    const verdict = judgeCheckpoint(checkpoint(4_000, "b".repeat(64)), identity, {
      ...l,
      hashTail: (bytes) => {
        seen.push(bytes);
        return "b".repeat(64);
      },
    });
    expect(seen).toEqual([4_000]);
    expect(verdict).toEqual({
      state: "behind",
      reason: "The log has 1000 bytes more than the checkpoint counts.",
      behindBytes: 1000,
    });
  });
});
