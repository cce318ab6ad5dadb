import { chmodSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { type FaultPaths, makeFaultTree } from "./fault-tree";
import { type RunningServer, startServer } from "./server";

/**
 * The server's side of the fault matrix (issue 24; the CLI's is
 * `cli/fault-matrix.test.ts`): the production server run as an unprivileged
 * user (uid 65534) over a demo with an unreadable log, checkpoint, lock, chat
 * folder, group and memory file, a FIFO and a link loop. The chat list streams
 * every other chat and names each fault, a faulty chat's page explains instead
 * of answering 500, the Doctor page lists them, and the index job finishes
 * with the rest indexed. On the old code the list ended with "The chat list
 * could not be read", the pages answered 500 and the job ended in an EACCES
 * error with 0 chats. Needs root to drop privileges (CI runs as root).
 */

const NOBODY = 65534;
let base = "";
let fault: FaultPaths;
let server: RunningServer;
let leftOut = 0;

test.describe("the fault matrix in the server, as an unprivileged user", () => {
  test.skip(process.getuid?.() !== 0, "running the server as another user needs root");
  test.describe.configure({ mode: "serial" });

  test.beforeAll(async () => {
    base = mkdtempSync(join(tmpdir(), "oda-e2e-faults-"));
    const tree = await makeFaultTree(base, NOBODY);
    fault = tree.fault;
    server = await startServer(tree, { HOME: tree.state }, { uid: NOBODY, gid: NOBODY });
  });

  test.afterAll(async () => {
    await server?.stop();
    for (const p of [fault?.chatFolder, fault?.group]) if (p && existsSync(p)) chmodSync(p, 0o755);
    if (base) rmSync(base, { recursive: true, force: true });
  });

  const get = async (path: string) => {
    const res = await fetch(`${server.baseURL}${path}`, { headers: { authorization: `Bearer ${server.token}` } });
    return { status: res.status, body: await res.text() };
  };

  test("/api/chats lists the rest and names each fault; the Doctor page lists them", async () => {
    const list = await get("/api/chats");
    expect(list.status).toBe(200);
    const batches = list.body
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { error?: unknown; rows?: unknown[] });
    expect(batches.filter((b) => b.error)).toEqual([]);
    expect(batches.reduce((n, b) => n + (b.rows?.length ?? 0), 0)).toBeGreaterThan(10);
    for (const p of [fault.log, fault.chatFolder, fault.group]) expect(list.body).toContain(`${p} cannot be read`);
    // The Doctor page draws its report from /api/doctor as it is found.
    const doctor = await get("/api/doctor");
    expect(doctor.status).toBe(200);
    for (const p of [fault.log, fault.chatFolder, fault.group, fault.memory]) expect(doctor.body).toContain(p);
  });

  test("a faulty chat's page explains with the sentence instead of answering 500", async ({ page, context }) => {
    await context.addCookies([
      { name: `oda_admin_${server.port}`, value: server.token, domain: "127.0.0.1", path: "/", httpOnly: true },
    ]);
    for (const [id, named] of [
      [fault.chatFolder.split("/").at(-1) as string, fault.chatFolder],
      [fault.log.split("/").at(-2) as string, fault.log],
    ] as const) {
      const res = await page.goto(`${server.baseURL}/chats/${encodeURIComponent(id)}`);
      expect(res?.status()).toBe(200);
      await expect(page.getByText(`${named} cannot be read`).first()).toBeVisible();
    }
  });

  test("the index job finishes with the rest indexed and names what it left out", async () => {
    type Status = {
      data: {
        chats: number;
        leftOut: number;
        job: { running: boolean; error: string | null; result: { unreadable: string[] } | null };
      };
    };
    const read = async () => JSON.parse((await get("/api/read/search.status")).body) as Status;
    // The status read starts the job; its state is polled until it has a result.
    await expect.poll(async () => (await read()).data.job.result !== null, { timeout: 60_000 }).toBe(true);
    const status = await read();
    expect(status.data.job.error).toBeNull();
    expect(status.data.chats).toBeGreaterThan(10);
    expect(status.data.job.result?.unreadable.join("\n")).toContain(`${fault.log} cannot be read`);
    // The log's chat, the chat folder and the group at least.
    expect(status.data.leftOut).toBeGreaterThanOrEqual(3);
    leftOut = status.data.leftOut;
  });

  test("the Search and Insights pages say how many were left out, with a link to the Doctor page", async ({
    page,
    context,
  }) => {
    await context.addCookies([
      { name: `oda_admin_${server.port}`, value: server.token, domain: "127.0.0.1", path: "/", httpOnly: true },
    ]);
    for (const path of ["/search", "/insights"]) {
      await page.goto(`${server.baseURL}${path}`);
      const panel = page.getByRole("region", { name: "Search index" });
      await expect(panel).toContainText(`${leftOut} chats or folders left out`);
      await panel.getByRole("link", { name: /The Doctor page lists each/ }).click();
      await expect(page).toHaveURL(/\/support\/doctor$/);
      await expect(page.getByText(`${fault.log} cannot be read`).first()).toBeVisible();
    }
  });
});
