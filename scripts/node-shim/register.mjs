// `import "server-only"` (in server/* and the lib barrels the app imports) keeps
// those modules out of the browser bundle: the package throws unless it is
// resolved under Next's react-server condition. The clone's own Node processes
// that load them (the CLI and the workers under tsx, the demo scripts, the
// benches, the e2e specs) import this first: it resolves `server-only` to an
// empty module. Vitest aliases it (vitest.config.ts), esbuild bundles alias it.
import { register } from "node:module";

const empty = new URL("./empty.mjs", import.meta.url).href;
const hooks = `export async function resolve(specifier, context, next) {
  return specifier === "server-only" ? { url: ${JSON.stringify(empty)}, shortCircuit: true } : next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
