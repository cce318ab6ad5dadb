import { describe, expect, it } from "vitest";
import { MESSAGES } from "@/lib/memory/messages";
import { withPageNumbers } from "./page-numbers";

describe("withPageNumbers", () => {
  it("groups the numbers of every limit sentence, as the counters show them", () => {
    expect(withPageNumbers(MESSAGES.textTooLong(2000, 2001))).toBe(
      "A memory is limited to 2,000 characters; this one has 2,001. Shorten it or split it into several memories.",
    );
    expect(withPageNumbers(MESSAGES.titleTooLong(1000, 1200))).toBe(
      "A memory title is limited to 1,000 characters; this one has 1,200.",
    );
    expect(withPageNumbers(MESSAGES.overTokens("workspace ws-2026", 12000, 8000))).toBe(
      "This change would take the memory a chat in workspace ws-2026 receives to 12,000 tokens; the limit is 8,000.",
    );
    expect(withPageNumbers(MESSAGES.overTokens("no workspace", 8001, 8000))).toBe(
      "This change would take the memory a chat in no workspace receives to 8,001 tokens; the limit is 8,000.",
    );
    expect(withPageNumbers(MESSAGES.couldNotChange(MESSAGES.fileTooLarge(65536)))).toBe(
      "The memory could not be changed: The file is larger than 65,536 bytes.",
    );
    expect(withPageNumbers(MESSAGES.overLimit(2000, 120))).toBe(
      "The memory is longer than 2,000 characters or its title longer than 120; shorten it in the file.",
    );
  });

  it("groups a settings value's range and default, leaving the value quoted from the file as it is", () => {
    expect(
      withPageNumbers(
        "memory.chatMaxTokens must be a whole number from 500 to 200000; 250000 is not. The default 8000 is used.",
      ),
    ).toBe(
      "memory.chatMaxTokens must be a whole number from 500 to 200,000; 250000 is not. The default 8,000 is used.",
    );
  });

  it("leaves every other sentence as it is: ids, keys and years are not numbers to group", () => {
    for (const s of [
      MESSAGES.noMemory("12345678"),
      MESSAGES.noVersion("20261129T182408123Z-chat"),
      'No memory with the id "10000000" exists in workspace 2026.',
      MESSAGES.unchanged,
    ]) {
      expect(withPageNumbers(s)).toBe(s);
    }
  });
});
