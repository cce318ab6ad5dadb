/** Memory lint (docs/memory-health.md): the run over a home, and the pure part over sets already read. */
export { normaliseForCompare, similarity, wordsOf } from "./compare";
export { DEFAULT_NEAR_THRESHOLD, DEFAULT_OFF_DAYS, type LintOptions, lintMemory, lintSets } from "./run";
export type { LintFinding, LintKind, LintMemory, LintReport, LintScope, NearPair } from "./types";
