import { randomBytes } from "node:crypto";
import { mkdirSync, renameSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDir } from "../../test-support/chats/test-helpers";
import { openChatDownload } from "./read";

/**
 * The raw download (issue 24): a log truncated while it is sent used to end the stream cleanly at the
 * new end (`createReadStream({ end })` stops without an error), so the download looked complete.
 */

const SIZE = 8 * 1024 * 1024;
let logs: string;
let path: string;
let bytes: Buffer;
beforeEach(() => {
  logs = tempDir();
  const dir = join(logs, "_no-cwd", "c-raw");
  mkdirSync(dir, { recursive: true });
  path = join(dir, "session.jsonl.zstd");
  bytes = randomBytes(SIZE);
  writeFileSync(path, bytes);
});
afterEach(() => rmSync(logs, { recursive: true, force: true }));

async function readSome(
  stream: AsyncIterable<Buffer>,
  after: (got: number) => void,
): Promise<{ got: Buffer; error: unknown }> {
  const parts: Buffer[] = [];
  let got = 0;
  try {
    for await (const chunk of stream) {
      parts.push(chunk);
      got += chunk.length;
      after(got);
    }
    return { got: Buffer.concat(parts), error: null };
  } catch (error) {
    return { got: Buffer.concat(parts), error };
  }
}

describe("the raw download of a log", () => {
  it("sends exactly the bytes the open saw", async () => {
    const { generation, stream } = openChatDownload(logs, "c-raw", { form: "raw" });
    expect(generation.bytes).toBe(SIZE);
    const { got, error } = await readSome(stream, () => {});
    expect(error).toBeNull();
    expect(got.equals(bytes)).toBe(true);
  });

  it("fails, naming the file and both sizes, when the log is truncated while it is sent", async () => {
    const { stream } = openChatDownload(logs, "c-raw", { form: "raw" });
    let cut = false;
    const { got, error } = await readSome(stream, (n) => {
      if (!cut && n >= 1024 * 1024) {
        truncateSync(path, 3 * 1024 * 1024);
        cut = true;
      }
    });
    expect(got.length).toBeLessThan(SIZE);
    expect((error as Error).message).toBe(
      `${path} became shorter while it was sent: it ended at byte ${3 * 1024 * 1024} of the ${SIZE} bytes the download began with. raw log: ${path}`,
    );
  });

  it("keeps sending the file it opened when another is renamed into its place", async () => {
    const { stream } = openChatDownload(logs, "c-raw", { form: "raw" });
    let swapped = false;
    const { got, error } = await readSome(stream, (n) => {
      if (!swapped && n >= 1024 * 1024) {
        writeFileSync(`${path}.new`, Buffer.alloc(100, 1));
        renameSync(`${path}.new`, path);
        swapped = true;
      }
    });
    expect(error).toBeNull();
    expect(got.equals(bytes)).toBe(true);
  });
});
