// A chat list thread in a clone (and under vitest): registers tsx and loads
// `list-pool.ts`, which serves as a list thread when started with its mark.
// Bundled (the CLI as the package ships it), the bundle holding `list-pool.ts`
// is started as the thread instead, so no TypeScript is compiled there.
import "../../scripts/node-shim/register.mjs";
import { register } from "tsx/esm/api";

register();
await import("./list-pool.ts");
