import { describe, expect, it } from "vitest";
import { freshHomePerTest } from "../../test-support/memory/test-home";
import { makeClock, memoryText, putFile } from "../../test-support/memory/testing";
import { chatPayload, createMemory, editorContext, renderPayload, setEnabled, writeSettings } from ".";

let home: string;
freshHomePerTest((h) => (home = h));

async function make(ws: string | null, title: string, now: () => Date) {
  return (await createMemory(home, ws, { title, text: `${title} text` }, { now })).memory!.id;
}

describe("editorContext", () => {
  it("splits every affected chat around the memory so that re-rendering gives the server's payload", async () => {
    const clock = makeClock("2026-11-29T10:00:00.000Z", 1000);
    const g1 = await make(null, "G1", clock);
    const g2 = await make(null, "G2", clock);
    const g3 = await make(null, "G3", clock);
    await setEnabled(home, null, g3, false);
    await make("ws-a", "A1", clock);
    const a2 = await make("ws-a", "A2", clock);
    await make("ws-b", "B1", clock);
    // a hand-made file with no `created` goes last
    await putFile(home, "memory/global/0000000f", memoryText("Hand", "made"));

    const ctx = await editorContext(home, null, g1);
    expect(ctx.chats.map((c) => c.workspace)).toEqual([null, "ws-a", "ws-b"]);
    for (const chat of ctx.chats) {
      const server = await chatPayload(home, chat.workspace);
      expect(renderPayload([...chat.before, { title: "G1", text: "G1 text" }, ...chat.after])).toBe(server.text);
    }
    expect(ctx.chats[0]?.before).toEqual([]);
    expect(ctx.chats[0]?.after.map((p) => p.title)).toEqual(["G2", "Hand"]);

    const mid = await editorContext(home, null, g2);
    expect(mid.chats[1]?.before.map((p) => p.title)).toEqual(["G1"]);
    expect(mid.chats[1]?.after.map((p) => p.title)).toEqual(["Hand", "A1", "A2"]);

    const ws = await editorContext(home, "ws-a", a2);
    expect(ws.chats).toHaveLength(1);
    expect(ws.chats[0]?.before.map((p) => p.title)).toEqual(["G1", "G2", "Hand", "A1"]);
    expect(ws.chats[0]?.after).toEqual([]);
  });

  it("places a new memory where one created now would go, and reports the limits", async () => {
    await writeSettings(home, { chatMaxTokens: 600 });
    const clock = makeClock("2026-11-29T10:00:00.000Z", 1000);
    await make(null, "G1", clock);
    await putFile(home, "memory/global/0000000f", memoryText("Hand", "made"));
    const ctx = await editorContext(home, null, null, () => new Date("2026-12-01T00:00:00.000Z"));
    expect(ctx.limits.chatMaxTokens).toBe(600);
    expect(ctx.chats[0]?.before.map((p) => p.title)).toEqual(["G1"]);
    expect(ctx.chats[0]?.after.map((p) => p.title)).toEqual(["Hand"]);
  });

  it("refuses a bad key or id before touching the disk", async () => {
    await expect(editorContext(home, "..", null)).rejects.toThrow("is not a workspace key");
    await expect(editorContext(home, null, "XYZ")).rejects.toThrow("is not a memory id");
  });
});
