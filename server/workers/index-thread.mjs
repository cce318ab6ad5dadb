// The server's index refresh worker in a clone: registers tsx (as the CLI
// does) and runs the TypeScript body, `server/workers/index-thread-main.ts`. The
// installed package ships that body compiled under this same name instead
// (`scripts/pack/build.mjs`), so no TypeScript is compiled at run time there.
import "../../scripts/node-shim/register.mjs";
import { register } from "tsx/esm/api";

register();
await import("./index-thread-main.ts");
