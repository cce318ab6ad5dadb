import type { Server, ServerResponse } from "node:http";

/** Wraps `serverClass.prototype.emit` once so a request with several Host headers is answered 403 at once. */
export declare function installDuplicateHostGuard(serverClass: typeof Server): void;
/** How many Host headers a raw header list (name, value, name, value…) holds. */
export declare function countHosts(rawHeaders: readonly string[]): number;
/** The refusal's body: the proxy's sentence for a refused Host. */
export declare const REFUSAL: string;
/** Wraps `responseClass.prototype.writeHead` once so `x-oda-content-length` becomes `content-length`. */
export declare function installContentLength(responseClass: typeof ServerResponse): void;
/** The header a route sets for a download's length (Next drops `content-length`). */
export declare const LENGTH_HEADER: string;
/**
 * Wraps `serverClass.prototype.close` and `emit` once so that, from `close()` on, responses end their
 * keep-alive connection and a connection still busy after `graceMs` is cut: a polling tab no longer
 * keeps a closing server alive.
 */
export declare function installShutdown(serverClass: typeof Server, graceMs?: number): void;
/** How long a request still being answered at close may take before its connection is cut. */
export declare const SHUTDOWN_GRACE_MS: number;
