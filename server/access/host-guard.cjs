// Three fixes to Node's HTTP server that Next gives no hook for (the second and
// third are `installContentLength` and `installShutdown` below). Refuses, with 403, every request that carries more than one Host header,
// before Next sees it. Next reads Node's `req.headers`, which keeps only the
// first Host, so the proxy and the guard cannot tell; a good first Host let
// such a request through. `next start` offers no hook on its HTTP server, so
// this wraps `emit` of Node's `http.Server` (the dashboard is the process's
// only server). It is plain CommonJS so that `npm start` can preload it
// (`node --require`) before the server exists: Next's instrumentation hook
// runs too late for the first requests after a start. `instrumentation.ts`
// loads it as well, for a bare `next start`. Loading it twice wraps once.
"use strict";

const http = require("node:http");

/** The proxy's sentence for a refused Host (`describeRefusal("host")` in lib/security/access.ts; a test keeps them equal). */
const REFUSAL = "Forbidden: this dashboard only answers on 127.0.0.1, localhost or [::1] at its own port.\n";
const INSTALLED = Symbol.for("oda-admin.duplicate-host-guard");

/** How many Host headers the raw header list (name, value, name, value…) holds. */
function countHosts(rawHeaders) {
  let n = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (String(rawHeaders[i]).toLowerCase() === "host") n++;
  return n;
}

/** Wraps `serverClass.prototype.emit` once so a "request" with several Host headers is answered 403 at once. */
function installDuplicateHostGuard(serverClass) {
  const proto = serverClass.prototype;
  if (proto[INSTALLED]) return;
  proto[INSTALLED] = true;
  const emit = proto.emit;
  proto.emit = function guardedEmit(event, ...args) {
    if (event === "request" && countHosts(args[0].rawHeaders) > 1) {
      const res = args[1];
      res.writeHead(403, {
        "content-type": "text/plain; charset=utf-8",
        "content-length": Buffer.byteLength(REFUSAL),
        "cache-control": "no-store",
      });
      res.end(REFUSAL);
      return true;
    }
    return emit.call(this, event, ...args);
  };
}

/**
 * The header a route sets for the length of a download; Next drops `content-length` from a route's
 * `Response` (its send-response.js lists it as forbidden, since fetch may have decoded a body), so a
 * download went out chunked and a short one ended cleanly: curl exited 0 on a log truncated while sent
 * (issue 24). This header is turned back into `content-length` as the head is written, so a short body is
 * an error for every client.
 */
const LENGTH_HEADER = "x-oda-content-length";
const LENGTH_INSTALLED = Symbol.for("oda-admin.content-length");

/** Wraps `responseClass.prototype.writeHead` once so `x-oda-content-length` becomes `content-length`. */
function installContentLength(responseClass) {
  const proto = responseClass.prototype;
  if (proto[LENGTH_INSTALLED]) return;
  proto[LENGTH_INSTALLED] = true;
  const writeHead = proto.writeHead;
  proto.writeHead = function writeHeadWithLength(...args) {
    const length = this.getHeader(LENGTH_HEADER);
    if (length !== undefined) {
      this.removeHeader(LENGTH_HEADER);
      if (/^\d+$/.test(String(length)) && !this.hasHeader("content-length") && !this.hasHeader("transfer-encoding"))
        this.setHeader("content-length", String(length));
    }
    return writeHead.apply(this, args);
  };
}

/**
 * How long a request still being answered when the server closes may take before its connection is cut.
 * A write in progress finishes well within it; a long download or listing stream is cut so the server
 * can stop.
 */
const SHUTDOWN_GRACE_MS = 10_000;
const SHUTDOWN_INSTALLED = Symbol.for("oda-admin.shutdown");
const CLOSING = Symbol("oda-admin.closing");
const ANSWERING = Symbol("oda-admin.answering");

/**
 * Wraps `serverClass.prototype.close` and `emit` once so a closing server lets go of keep-alive
 * connections. On SIGINT or SIGTERM Next's production server calls `server.close()` and waits for it;
 * Node closes the connections idle at that moment only, so a dashboard tab that polls (the memory pages
 * look for outside changes every few seconds) kept its connection busy and the server never exited:
 * `oda-admin serve` waited for it forever. From `close()` on, every response not yet started, and every
 * request that still arrives on an open connection, is answered with `Connection: close`; a connection
 * still busy after `SHUTDOWN_GRACE_MS` is cut. Installed once per class (a subclass may be given its own
 * grace; its close runs first and the inherited one then finds the server closing).
 */
function installShutdown(serverClass, graceMs = SHUTDOWN_GRACE_MS) {
  const proto = serverClass.prototype;
  if (Object.hasOwn(proto, SHUTDOWN_INSTALLED)) return;
  proto[SHUTDOWN_INSTALLED] = true;
  const emit = proto.emit;
  proto.emit = function emitEndingKeepAlive(event, ...args) {
    if (event === "request") {
      const res = args[1];
      if (this[CLOSING]) res.shouldKeepAlive = false;
      else {
        if (!this[ANSWERING]) this[ANSWERING] = new Set();
        const answering = this[ANSWERING];
        answering.add(res);
        res.once("close", () => answering.delete(res));
      }
    }
    return emit.call(this, event, ...args);
  };
  const close = proto.close;
  proto.close = function closeLettingGo(...args) {
    if (!this[CLOSING]) {
      this[CLOSING] = true;
      for (const res of this[ANSWERING] ?? []) if (!res.headersSent) res.shouldKeepAlive = false;
      const cut = setTimeout(() => this.closeAllConnections(), graceMs);
      cut.unref();
      this.once("close", () => clearTimeout(cut));
    }
    return close.apply(this, args);
  };
}

installDuplicateHostGuard(http.Server);
installContentLength(http.ServerResponse);
installShutdown(http.Server);

module.exports = {
  installDuplicateHostGuard,
  installContentLength,
  installShutdown,
  countHosts,
  REFUSAL,
  LENGTH_HEADER,
  SHUTDOWN_GRACE_MS,
};
