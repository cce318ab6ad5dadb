import { describe, expect, it } from "vitest";
import { createChat, settleFolder } from "../../test-support/chats/testing";
import { tempIndexRoots } from "../../test-support/search-index/test-roots";
import { CHECK_CANCELLED, checkIndexFreshness, refreshIndex } from ".";

const roots = tempIndexRoots("oda-index-cancel-");

/** A folder of `n` chats in `groups` working folders, indexed and settled (no chat racy): the check finds it up to date. */
async function indexedFolder(n: number, groups = 1) {
  const { logs, state } = roots();
  for (let i = 0; i < n; i++) {
    const w = createChat(logs, { id: `c-${i}`, cwd: `/srv/a${i % groups}`, created: "2026-11-20T09:00:00.000Z" });
    await w.appendTurn({ user: `Question ${i}`, assistant: "Answer", ts: "2026-11-20T09:01:00.000Z" });
    await w.close();
  }
  settleFolder(logs);
  await refreshIndex(state, logs, { compress: true });
  return { logs, state };
}

describe("the folder check stopped when nobody waits for it (issue 28)", () => {
  it("ends with the cancellation error once told, looking every few chats, and runs to its end when never told", async () => {
    const { logs, state } = await indexedFolder(130);
    let looks = 0;
    const stopped = checkIndexFreshness(state, logs, () => ++looks > 1);
    await expect(stopped).rejects.toMatchObject({ name: "AbortError", message: CHECK_CANCELLED });
    // Told at its second look: it compared one round of chats, not all 130, and looked no more.
    expect(looks).toBe(2);

    let counted = 0;
    const whole = await checkIndexFreshness(state, logs, () => {
      counted++;
      return false;
    });
    expect(whole).toMatchObject({ fresh: true, total: 130 });
    // One look before the one group's walk; then 130 chats, a look every 64: at chats 0, 64 and 128.
    expect(counted).toBe(4);
  });

  it("is stopped in the folder's walk too, a look before each group's", async () => {
    const { logs, state } = await indexedFolder(30, 3);
    let looks = 0;
    const stopped = checkIndexFreshness(state, logs, () => ++looks > 2);
    await expect(stopped).rejects.toMatchObject({ name: "AbortError", message: CHECK_CANCELLED });
    // Told before the third group's walk: no chat was compared (that would have been a fourth look).
    expect(looks).toBe(3);
  });
});
