import { fileURLToPath } from "node:url";

/**
 * esbuild's `alias` for bundles that run outside Next (the crash, race and kill
 * harnesses' children): `server-only` becomes an empty module, as
 * `register.mjs` does for the clone's Node processes.
 */
export const serverOnlyAlias = { "server-only": fileURLToPath(new URL("./empty.mjs", import.meta.url)) };
