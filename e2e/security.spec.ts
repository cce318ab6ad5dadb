import { createServer } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { networkInterfaces } from "node:os";
import { expect, expectAccessible, test } from "./fixtures";
import { rawRequest } from "./http";

test.describe("safe by default", () => {
  test("the printed URL's token is swapped for an HttpOnly, SameSite=Strict cookie", async ({ browser, oda }) => {
    const context = await browser.newContext(); // no cookie yet
    const page = await context.newPage();
    await page.goto(`${oda.baseURL}/?token=${oda.token}`);
    await expect(page).toHaveURL(`${oda.baseURL}/`);
    await expect(page.getByRole("heading", { level: 1, name: "Oda Admin" })).toBeVisible();
    const cookie = (await context.cookies()).find((c) => c.name === `oda_admin_${oda.port}`);
    expect(cookie).toMatchObject({ value: oda.token, httpOnly: true, sameSite: "Strict" });
    await context.close();
  });

  test("without the token every route answers 401", async ({ oda }) => {
    for (const path of ["/", "/memory", "/chats", "/_next/static/chunks/none.js", "/favicon.ico"]) {
      const res = await rawRequest(`${oda.baseURL}${path}`);
      expect(res.status, path).toBe(401);
    }
    const wrong = await rawRequest(`${oda.baseURL}/?token=${"x".repeat(43)}`);
    expect(wrong.status).toBe(401);
    const wrongCookie = await rawRequest(`${oda.baseURL}/`, { headers: { cookie: `oda_admin_${oda.port}=nope` } });
    expect(wrongCookie.status).toBe(401);
  });

  test("a forged middleware-subrequest header does not skip the checks (CVE-2025-29927)", async ({ oda }) => {
    for (const value of ["middleware:middleware:middleware:middleware:middleware", "proxy:proxy:proxy:proxy:proxy"]) {
      const res = await rawRequest(`${oda.baseURL}/`, { headers: { "x-middleware-subrequest": value } });
      expect(res.status).toBe(401);
      expect(res.body).not.toContain("Oda Admin</h1>");
    }
  });

  test("a foreign Host is refused with 403 even with the token (DNS rebinding)", async ({ oda }) => {
    const cookie = `oda_admin_${oda.port}=${oda.token}`;
    for (const host of ["evil.example", `evil.example:${oda.port}`, "127.0.0.1:1", `127.0.0.1.nip.io:${oda.port}`]) {
      const res = await rawRequest(`${oda.baseURL}/`, { headers: { host, cookie } });
      expect(res.status, host).toBe(403);
    }
    for (const host of [`127.0.0.1:${oda.port}`, `localhost:${oda.port}`, `[::1]:${oda.port}`]) {
      const res = await rawRequest(`${oda.baseURL}/`, { headers: { host, cookie } });
      expect(res.status, host).toBe(200);
    }
  });

  test("a request with two Host headers is refused with 403, even when the good one comes first", async ({ oda }) => {
    const cookie = `oda_admin_${oda.port}=${oda.token}`;
    const good = `127.0.0.1:${oda.port}`;
    for (const [first, second] of [
      [good, "evil.example"],
      ["evil.example", good],
      [good, good],
    ]) {
      const answer = await new Promise<string>((done, fail) => {
        const socket = connect(Number(oda.port), "127.0.0.1", () =>
          socket.write(
            `GET / HTTP/1.1\r\nHost: ${first}\r\nHost: ${second}\r\nCookie: ${cookie}\r\nConnection: close\r\n\r\n`,
          ),
        );
        let text = "";
        socket.setEncoding("utf8");
        socket.on("data", (chunk) => {
          text += chunk;
        });
        socket.on("error", fail);
        socket.on("end", () => done(text));
      });
      expect(answer.split("\r\n")[0], `${first} then ${second}`).toBe("HTTP/1.1 403 Forbidden");
      expect(answer).not.toContain("Oda Admin</h1>");
    }
    const one = await rawRequest(`${oda.baseURL}/`, { headers: { host: good, cookie } });
    expect(one.status).toBe(200);
  });

  test("POSTs and server actions with a missing, null or foreign Origin are refused", async ({ oda }) => {
    const cookie = `oda_admin_${oda.port}=${oda.token}`;
    const action = { "next-action": "0".repeat(42), "content-type": "text/plain;charset=UTF-8" };
    for (const origin of [undefined, "null", "http://evil.example", `http://localhost:${oda.port}`]) {
      const headers: Record<string, string> = { cookie, ...action };
      if (origin) headers.origin = origin;
      const res = await rawRequest(`${oda.baseURL}/`, { method: "POST", headers, body: "[]" });
      expect(res.status, String(origin)).toBe(403);
    }
  });

  test("another local server's page cannot read the dashboard's data through its GETs", async ({ page, oda }) => {
    // A site is the host without its port, and a cookie ignores ports: a page on another 127.0.0.1 port is
    // "same-site", and the SameSite=Strict cookie goes along with its <img>, <script src> and no-cors fetch.
    // What the browser sends is recorded by a second local server (the browser may hide the dashboard's
    // answer from the page, but the server must not do the work or send the data), then replayed to it.
    const listen = async (handle: Parameters<typeof createServer>[1]) => {
      const server = createServer(handle);
      await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
      return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
    };
    const sent: { how: string; headers: Record<string, string> }[] = [];
    const recorder = await listen((req, res) => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([name]) => name === "cookie" || name.startsWith("sec-fetch-")),
      ) as Record<string, string>;
      sent.push({ how: new URL(req.url ?? "/", "http://x").search.slice(1), headers });
      res.end();
    });
    const probe = `${recorder.origin}/api/read/memory.overview`;
    const other = await listen((_req, res) => {
      res.setHeader("content-type", "text/html");
      res.end(
        `<!doctype html><title>other</title><img src="${probe}?img"><script src="${probe}?script"></script>` +
          `<script>fetch("${probe}?fetch", { mode: "no-cors", credentials: "include" })</script>` +
          `<a href="${oda.baseURL}/memory">Open Oda Admin</a>`,
      );
    });
    try {
      await page.goto(`${other.origin}/`);
      await expect.poll(() => sent.map((s) => s.how).sort()).toEqual(["fetch", "img", "script"]);
      for (const { how, headers } of sent) {
        expect(headers.cookie, how).toContain(`oda_admin_${oda.port}=${oda.token}`);
        expect(headers["sec-fetch-site"], how).toBe("same-site");
        const res = await rawRequest(`${oda.baseURL}/api/read/memory.overview?${how}`, { headers });
        expect(res.status, how).toBe(403);
        expect(res.body, how).not.toContain('"ok":true');
        expect(res.headers["x-content-type-options"], how).toBe("nosniff");
      }
      // A link followed from elsewhere still opens a page.
      await page.getByRole("link", { name: "Open Oda Admin" }).click();
      await expect(page).toHaveURL(`${oda.baseURL}/memory`);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    } finally {
      for (const { server } of [recorder, other]) await new Promise((done) => server.close(done));
    }
    // The dashboard's own pages still read.
    const own = await page.evaluate(async (url) => {
      const res = await fetch(url);
      return {
        status: res.status,
        nosniff: res.headers.get("x-content-type-options"),
        store: res.headers.get("cache-control"),
      };
    }, `${oda.baseURL}/api/read/memory.overview`);
    expect(own).toEqual({ status: 200, nosniff: "nosniff", store: "no-store" });
  });

  test("a read's name is an allow-list, never a property or a path", async ({ oda }) => {
    const cookie = `oda_admin_${oda.port}=${oda.token}`;
    for (const name of ["__proto__", "constructor", "toString", "hasOwnProperty", "memory.overview%00"]) {
      const res = await rawRequest(`${oda.baseURL}/api/read/${name}`, { headers: { cookie } });
      expect(res.status, name).toBe(404);
      expect(res.headers["x-content-type-options"], name).toBe("nosniff");
      expect(res.headers["content-type"], name).toMatch(/^application\/json/);
    }
    const path = await rawRequest(`${oda.baseURL}/api/read/..%2F..%2Fmemory.overview`, { headers: { cookie } });
    expect(path.status).toBe(404);
    expect(path.body).not.toContain('"ok":true');
    const ok = await rawRequest(`${oda.baseURL}/api/read/memory.overview`, { headers: { cookie } });
    expect(ok.status).toBe(200);
    expect(ok.headers).toMatchObject({ "cache-control": "no-store", "x-content-type-options": "nosniff" });
    const foreign = await rawRequest(`${oda.baseURL}/api/read/memory.overview`, {
      headers: { cookie, host: "evil.example" },
    });
    expect(foreign.status).toBe(403);
    expect((await rawRequest(`${oda.baseURL}/api/read/memory.overview`)).status).toBe(401);
  });

  test("the server listens on 127.0.0.1 only", async ({ oda }) => {
    const outside = Object.values(networkInterfaces())
      .flat()
      .filter((a) => a && !a.internal && a.family === "IPv4")
      .map((a) => a?.address as string);
    for (const address of outside) {
      const reached = await new Promise<boolean>((done) => {
        const socket = connect({ host: address, port: Number(oda.port) });
        socket.once("connect", () => {
          socket.destroy();
          done(true);
        });
        socket.once("error", () => done(false));
      });
      expect(reached, address).toBe(false);
    }
    const res = await rawRequest(`${oda.baseURL}/`, { headers: { cookie: `oda_admin_${oda.port}=${oda.token}` } });
    expect(res.status).toBe(200);
  });

  test("the home page shows the roots and passes axe", async ({ page, oda }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Oda Admin", level: 1 })).toBeVisible();
    await expect(page.getByText(oda.home, { exact: true })).toBeVisible();
    await expect(page.getByText(oda.logs, { exact: true })).toBeVisible();
    await expect(page.getByRole("note", { name: "Demo data" })).toHaveCount(0);
    await expectAccessible(page);
  });
});
