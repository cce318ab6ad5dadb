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
