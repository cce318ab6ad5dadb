import { createServer, Server } from "node:http";
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeRefusal } from "@/lib/security/access";

// Loading it installs the guard on Node's http.Server, as `npm start`'s preload does.
import * as guard from "./host-guard.cjs";

/** Sends `head` (request line and headers) on a raw socket; resolves with the status line and body. */
function send(port: number, head: string): Promise<{ status: string; body: string }> {
  return new Promise((done, fail) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(`${head}Connection: close\r\n\r\n`));
    let text = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk) => {
      text += chunk;
    });
    socket.on("error", fail);
    socket.on("end", () => done({ status: text.split("\r\n")[0] ?? "", body: text.split("\r\n\r\n")[1] ?? "" }));
  });
}

let server: Server;
let port: number;
beforeAll(async () => {
  guard.installDuplicateHostGuard(Server); // again: still one wrapper
  server = createServer((_req, res) => res.end("served"));
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  port = (server.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

describe("two Host headers", () => {
  it("are refused with 403 whichever comes first, before the app sees the request", async () => {
    for (const [a, b] of [
      [`127.0.0.1:${port}`, "evil.example"],
      ["evil.example", `127.0.0.1:${port}`],
      [`127.0.0.1:${port}`, `127.0.0.1:${port}`],
    ]) {
      const res = await send(port, `GET / HTTP/1.1\r\nHost: ${a}\r\nhost: ${b}\r\n`);
      expect(res.status).toBe("HTTP/1.1 403 Forbidden");
      expect(res.body).toBe(
        "Forbidden: this dashboard only answers on 127.0.0.1, localhost or [::1] at its own port.\n",
      );
    }
  });

  it("leave a request with one Host alone", async () => {
    const res = await send(port, `GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
    expect(res).toEqual({ status: "HTTP/1.1 200 OK", body: expect.stringContaining("served") });
  });

  it("are counted from the raw header list, in any case, and refused with the proxy's sentence", () => {
    expect(guard.countHosts(["Host", "a", "X-Host", "b", "HOST", "c"])).toBe(2);
    expect(guard.countHosts([])).toBe(0);
    expect(guard.REFUSAL).toBe(`${describeRefusal("host")}\n`);
  });
});

describe("x-oda-content-length (issue 24: Next drops a route's content-length)", () => {
  it("becomes content-length as the head is written, so the body is not chunked", async () => {
    const lengthServer = createServer((_req, res) => {
      res.setHeader(guard.LENGTH_HEADER, "6");
      res.write("abc");
      res.end("def");
    });
    await new Promise<void>((ready) => lengthServer.listen(0, "127.0.0.1", ready));
    try {
      const at = (lengthServer.address() as { port: number }).port;
      const socket = connect(at, "127.0.0.1", () =>
        socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${at}\r\nConnection: close\r\n\r\n`),
      );
      let text = "";
      socket.setEncoding("utf8");
      socket.on("data", (chunk) => {
        text += chunk;
      });
      await new Promise((done) => socket.on("end", done));
      const [head, body] = text.split("\r\n\r\n");
      expect(head).toMatch(/\r\ncontent-length: 6(\r\n|$)/i);
      expect(head).not.toMatch(/transfer-encoding|x-oda-content-length/i);
      expect(body).toBe("abcdef");
    } finally {
      await new Promise<void>((done) => lengthServer.close(() => done()));
    }
  });
});

describe("a closing server lets go of keep-alive connections (a polling tab kept `serve` from stopping)", () => {
  /** Sends one request on `socket` and resolves with the response's head, once its body has arrived. */
  function ask(socket: Socket, port: number, buffered: { text: string }): Promise<string> {
    return new Promise((done, fail) => {
      const onData = () => {
        const end = buffered.text.indexOf("\r\n\r\n");
        if (end < 0) return;
        const head = buffered.text.slice(0, end);
        const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? 0);
        if (buffered.text.length < end + 4 + length) return;
        buffered.text = buffered.text.slice(end + 4 + length);
        socket.off("data", onData);
        socket.off("error", fail);
        done(head);
      };
      socket.on("data", onData);
      socket.on("error", fail);
      socket.write(`GET /poll HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    });
  }

  it("answers the request under way at close() and every later one with Connection: close, so close() completes", async () => {
    let served = 0;
    let closed = false;
    const polled = createServer((_req, res) => {
      served += 1;
      // The tab's third poll is being answered when the server is told to stop.
      if (served === 3) polled.close(() => (closed = true));
      res.setHeader("content-length", "2");
      res.end("ok");
    });
    await new Promise<void>((ready) => polled.listen(0, "127.0.0.1", ready));
    const port = (polled.address() as { port: number }).port;
    const socket = connect(port, "127.0.0.1");
    socket.setEncoding("utf8");
    const buffered = { text: "" };
    socket.on("data", (chunk: string) => {
      buffered.text += chunk;
    });
    const ended = new Promise((done) => socket.once("close", done));
    const heads: string[] = [];
    // Polls back to back on one connection, as a browser tab does, until the server ends it.
    while (!socket.destroyed && heads.length < 10) {
      const head = await ask(socket, port, buffered).catch(() => null);
      if (head === null) break;
      heads.push(head);
      if (/\r\nconnection: close/i.test(head)) break;
    }
    await ended;
    await new Promise<void>((done) => (closed ? done() : polled.once("close", () => done())));
    expect(heads.length).toBe(3);
    expect(heads[0]).toMatch(/\r\nconnection: keep-alive/i);
    expect(heads[2]).toMatch(/\r\nconnection: close/i);
  });

  it("cuts a connection still busy when the grace ends (a stream that never finishes)", async () => {
    class ShortGrace extends Server {}
    guard.installShutdown(ShortGrace, 100);
    guard.installShutdown(ShortGrace, 100); // again: still one wrapper
    const streaming = new ShortGrace((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("first chunk, and no end");
    });
    await new Promise<void>((ready) => streaming.listen(0, "127.0.0.1", ready));
    const port = (streaming.address() as { port: number }).port;
    const socket = connect(port, "127.0.0.1", () =>
      socket.write(`GET /stream HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`),
    );
    socket.on("error", () => {});
    await new Promise((started) => socket.once("data", started));
    const cut = new Promise((done) => socket.once("close", done));
    await new Promise<void>((done) => streaming.close(() => done()));
    await cut;
    expect(socket.destroyed).toBe(true);
  });
});
