// An index reader thread in a clone: registers tsx (as the CLI does) and runs
// the TypeScript body, `read-thread-main.ts`. The installed package ships that
// body compiled under this same name beside the code that starts it
// (`scripts/pack/build.mjs`), so no TypeScript is compiled at run time there.
import "../../scripts/node-shim/register.mjs";
import { register } from "tsx/esm/api";

register();
await import("./read-thread-main.ts");
