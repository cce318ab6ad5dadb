// The dashboard's bundle thread in a clone: registers tsx and runs the body,
// `lib/bundle/bundle-thread-main.ts`. The installed package ships that body
// compiled under this same name (`scripts/pack/build.mjs`), where the server
// looks for it (`<cwd>/server/workers/bundle-thread.mjs`).
import "../../scripts/node-shim/register.mjs";
import { register } from "tsx/esm/api";

register();
await import("../../lib/bundle/bundle-thread-main.ts");
