import type { Server } from "node:http";

/** Wraps `serverClass.prototype.emit` once so a request with several Host headers is answered 403 at once. */
export declare function installDuplicateHostGuard(serverClass: typeof Server): void;
/** How many Host headers a raw header list (name, value, name, value…) holds. */
export declare function countHosts(rawHeaders: readonly string[]): number;
/** The refusal's body: the proxy's sentence for a refused Host. */
export declare const REFUSAL: string;
