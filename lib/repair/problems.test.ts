import { afterEach, describe, expect, it } from "vitest";
import { makeWorld, type RepairWorld, writeChat } from "../../test-support/repair/testing";
import { chatsOfProblems, chatsRepairable, listRepairable } from ".";

let world: RepairWorld | null = null;
afterEach(() => {
  world?.remove();
  world = null;
});

describe("the repairs on offer for the chats named (the Doctor's, a step at a time)", () => {
  it("are what the listing of every chat offers those chats, and nothing for the others", async () => {
    world = makeWorld(false);
    await writeChat(world.logs, "c-wrong", { compress: true });
    await writeChat(world.logs, "c-twice", { compress: false, cwd: "/srv/a" });
    await writeChat(world.logs, "c-twice", { compress: false, cwd: "/srv/b" });
    await writeChat(world.logs, "c-fine", { compress: false });
    await writeChat(world.logs, "c-also-wrong", { compress: true });
    const named = ["c-wrong", "c-twice", "c-fine", "c-gone"];
    const all = await listRepairable(world.roots);
    expect(all.map((r) => r.id).sort()).toEqual(["duplicate:c-twice", "form:c-also-wrong", "form:c-wrong"]);
    const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
    expect(chatsRepairable(world.roots, named).sort(byId)).toEqual(
      all.filter((r) => named.includes(r.subject)).sort(byId),
    );
  });

  it("finds the chats a problem's path names, leaving out the folder's own and a group's", () => {
    const problems = [
      ".",
      "stray.txt",
      "--%2Fsrv%2Fa--",
      "--%2Fsrv%2Fa--/c%2F1/session.v4.jsonl",
      "--%2Fsrv%2Fa--/c-2",
      "_no-cwd/c-2/session.lock",
      "not a group/c-3",
    ];
    expect(chatsOfProblems(problems)).toEqual(["c/1", "c-2"]);
  });
});
