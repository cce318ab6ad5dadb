import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
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

  test("a folder at the memory lock: set aside from the Repairs page after a confirmation, then a save works", async ({
    page,
    oda,
  }) => {
    const lock = join(oda.home, "memory-history", ".lock");
    mkdirSync(lock, { recursive: true });

    await page.goto("/repairs");
    const problem = page.getByRole("listitem", { name: "lock:memory-history" });
    await expect(problem).toContainText(`${lock} is a folder`);
    await problem.getByRole("button", { name: "Set aside lock:memory-history" }).click();
    const dialog = page.getByRole("dialog", { name: "Set aside the memory lock?" });
    await expect(dialog).toContainText(`${lock} is a folder.`);
    await expectAccessible(page);
    // The preview changed nothing.
    expect(statSync(lock).isDirectory()).toBe(true);
    await dialog.getByRole("button", { name: "Set aside" }).click();

    await expect(page.getByText(/^Set aside .*memory-history\/\.lock; it is kept in /)).toBeVisible();
    await expect(page.getByRole("listitem", { name: "lock:memory-history" })).toHaveCount(0);
    expect(() => statSync(lock)).toThrow(/ENOENT/);
    const locks = join(oda.state, "repairs", "locks");
    const kept = readdirSync(locks)[0] ?? "";
    expect(kept).toMatch(/-memory-history-/);
    expect(statSync(join(locks, kept, "lock")).isDirectory()).toBe(true);
    expect(JSON.parse(readFileSync(join(locks, kept, "note.json"), "utf8"))).toMatchObject({
      path: lock,
      what: "a folder",
    });
    await expectAccessible(page);

    // A memory save goes through now (with the folder there it was refused as busy).
    await page.goto("/memory/global/new");
    await page.getByLabel("Title", { exact: true }).fill("Reply language");
    await page.getByLabel("Text", { exact: true }).fill("Reply in English.");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page).toHaveURL(/\/memory\/global\/[0-9a-f]{8}$/);
    expect(readdirSync(join(oda.home, "memory", "global")).filter((n) => /^[0-9a-f]{8}$/.test(n))).toHaveLength(1);
  });
});
