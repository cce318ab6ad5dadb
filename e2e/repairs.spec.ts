import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { closedChat } from "./chats-setup";
import { expect, expectAccessible, seed, test } from "./fixtures";

const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

test.describe("repairs", () => {
  // A plain log (a backup restored plain) in a folder that keeps zstd-compressed logs (the default).
  test.use({
    odaSetup: seed(async ({ logs }) => {
      await closedChat(logs, "c-wrong", "/home/ana/reports", 2, { compress: false });
    }),
  });

  test("fix a wrong-form chat from its page, read it, undo from the Repairs page", async ({ page, oda }) => {
    const dir = join(oda.logs, "--%2Fhome%2Fana%2Freports--", "c-wrong");
    const plain = join(dir, "session.v4.jsonl");
    const original = sha256(plain);

    await page.goto("/chats/c-wrong");
    await expect(page.getByText(/is plain but this log folder keeps zstd-compressed logs/).first()).toBeVisible();
    const repair = page.getByRole("region", { name: "Repair" });
    await repair.getByRole("button", { name: "Fix" }).click();
    const dialog = page.getByRole("dialog", { name: "Convert this chat's log?" });
    const changes = dialog.getByRole("list", { name: "Files this repair changes" });
    await expect(changes.getByRole("listitem")).toHaveCount(3);
    await expect(changes).toContainText("create");
    await expect(changes).toContainText("session.v4.jsonl.zstd");
    await expectAccessible(page);
    await dialog.getByRole("button", { name: "Repair" }).click();

    await expect(page.getByText(/^Repaired: Convert session\.v4\.jsonl of chat "c-wrong"/)).toBeVisible();
    await expect(page.getByText("Answer 2 of c-wrong").first()).toBeVisible();
    await expect(page.getByRole("region", { name: "Repair" })).toHaveCount(0);
    expect(readdirSync(dir).sort()).toEqual(["session.cache.json", "session.v4.jsonl.zstd"]);

    await page.getByRole("link", { name: "Repairs" }).click();
    await expect(page.getByRole("heading", { name: "Repairs", level: 1 })).toBeVisible();
    const made = page.getByRole("list", { name: "Repairs made" });
    await expect(made.getByRole("listitem").first()).toContainText('Convert session.v4.jsonl of chat "c-wrong"');
    await expectAccessible(page);
    await made.getByRole("button", { name: /^Undo Convert/ }).click();
    await page.getByRole("dialog", { name: "Undo this repair?" }).getByRole("button", { name: "Undo" }).click();
    await expect(page.getByText("Undone: every byte the repair changed is back.")).toBeVisible();
    await expect(made.getByText("undone")).toBeVisible();
    expect(sha256(plain)).toBe(original);
    expect(readdirSync(dir).sort()).toEqual(["session.cache.json", "session.v4.jsonl"]);
  });
});
