import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { compress } from "@mongodb-js/zstd";
import { describe, expect, it } from "vitest";
import { MAIL, message, noise, run, temp } from "../../test-support/bundle/redact-log-testing";

// redact-log.ts's lazy start when no frame boundary is near (docs/mutation.md): it holds at most 32 MiB of
// decoded lines since the last usable boundary; past that, a change cannot be written from the original's
// frames, and the log is to be redacted again without `lazy` (`again`). About 34 MB of log: a few seconds.

describe("redactLog, lazy, with no frame boundary within 32 MiB", () => {
  it("answers again, writing nothing; without lazy the same log is redacted whole", async () => {
    const file = join(temp(), "big.jsonl.zst");
    const lines: string[] = [];
    for (let i = 0; i < 340; i++) lines.push(`${message(noise(100_000))}\n`); // one frame of 34 MB
    lines.push(`${message(MAIL)}\n`);
    const text = lines.join("");
    writeFileSync(file, await compress(Buffer.from(text), 3));

    const lazy = await run(file, { compressed: true, lazy: true });
    expect(lazy.res).toMatchObject({ again: true, changed: true, rebuilt: null });
    expect(lazy.writes).toEqual([]);

    const whole = await run(file, { compressed: true });
    expect(whole.res).toMatchObject({ again: false, changed: true, lines: 341 });
  }, 120_000);
});
