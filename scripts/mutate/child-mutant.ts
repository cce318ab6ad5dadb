import { beforeEach } from "vitest";

// `npm run mutate` only (vitest.mutate.config.ts): StrykerJS activates a mutant inside vitest's worker, so a
// test that runs the code in a child process (a setpriv'd process of another user, a CLI) would test the
// original code there. Instrumented code also reads the active mutant from this variable, which every
// child inherits with the environment.
const VARIABLE = "__STRYKER_ACTIVE_MUTANT__";
beforeEach(() => {
  const active = (globalThis as { __stryker__?: { activeMutant?: string | number } }).__stryker__?.activeMutant;
  if (active === undefined) delete process.env[VARIABLE];
  else process.env[VARIABLE] = String(active);
});
