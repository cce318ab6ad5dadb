import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { describeRefusal, hostValues } from "@/lib/security/access";

/**
 * Refuses, with 403, every request that carries more than one Host header,
 * before Next sees it: Next reads Node's `req.headers`, which keeps only the
 * first Host, so the proxy and the guard could not tell. `next start` gives
 * no hook on its HTTP server, so this wraps `emit` of Node's `http.Server`
 * (the dashboard is the process's only server), once, from `instrumentation.ts`.
 */

const INSTALLED = Symbol.for("oda-admin.duplicate-host-guard");

type Emit = Server["emit"];

/** Installs the guard on `serverClass` (Node's `http.Server`); a second call does nothing. */
export function installDuplicateHostGuard(serverClass: { prototype: Server }): void {
  const proto = serverClass.prototype as Server & { [INSTALLED]?: true };
  if (proto[INSTALLED]) return;
  proto[INSTALLED] = true;
  const emit: Emit = proto.emit;
  proto.emit = function guardedEmit(this: Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event === "request") {
      const [req, res] = args as [IncomingMessage, ServerResponse];
      if (hostValues(req.rawHeaders).length > 1) {
        const body = `${describeRefusal("host")}\n`;
        res.writeHead(403, {
          "content-type": "text/plain; charset=utf-8",
          "content-length": Buffer.byteLength(body),
          "cache-control": "no-store",
        });
        res.end(body);
        return true;
      }
    }
    return (emit as (this: Server, event: string | symbol, ...rest: unknown[]) => boolean).call(this, event, ...args);
  } as Emit;
}
