import { REDACT_KINDS } from "../../lib/bundle/detectors";
import type { BundleScope } from "../../lib/bundle/plan";

/**
 * For tests and their child processes: every chat with every redaction kind
 * on and nothing else (the CLI's defaults without `--memory`), with `changes`
 * over it.
 */
export function testScope(changes: Partial<BundleScope> = {}): BundleScope {
  return {
    chats: "all",
    since: null,
    memory: false,
    kinds: [...REDACT_KINDS],
    keywords: [],
    dropText: false,
    ...changes,
  };
}
