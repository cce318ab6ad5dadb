import { describe, expect, it } from "vitest";
import { chatRow } from "@/test-support/chats/chat-row";
import { SentRows } from "./sent-rows";

const row = (id: string, title: string) => chatRow(id, { title });

describe("the rows the chat list sent, as the folder check compares them", () => {
  it("holds a digest of each row, not its JSON", () => {
    const sent = new SentRows();
    const long = "x".repeat(10_000);
    for (let i = 0; i < 1000; i++) sent.add(row(`c-${i}`, long));
    // 1,000 rows of over 10 KB of JSON each: about 34 characters each are held, not 10 MB.
    expect(sent.heldChars()).toBeLessThan(40 * 1000);
    expect([...sent.ids()]).toHaveLength(1000);
  });

  it("tells a row that changed in any value from the one sent, and a new id from any", () => {
    const sent = new SentRows();
    sent.add(row("c-a", "first"));
    expect(sent.differs(row("c-a", "first"))).toBe(false);
    expect(sent.differs(row("c-a", "firsT"))).toBe(true);
    expect(sent.differs({ ...row("c-a", "first"), behindBytes: 1 })).toBe(true);
    expect(sent.differs({ ...row("c-a", "first"), notes: 1 })).toBe(true);
    expect(sent.differs(row("c-b", "first"))).toBe(true);
  });
});
