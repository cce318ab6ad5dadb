// The safety core that `npm run mutate` mutates (issue 31), each file with the unit tests that run
// against its mutants. Tests that spawn processes to run the code (CLI, kill, crash and race tests)
// and the fuzz tests are left out: a mutant is active only inside vitest's worker, so a child process
// runs the original code, and those tests cost minutes per mutant on two cores.

const BUNDLE = [
  "lib/bundle/detectors.test.ts",
  "lib/bundle/create.test.ts",
  "lib/bundle/read.test.ts",
  "lib/bundle/stage.test.ts",
  "lib/bundle/memory.test.ts",
  "lib/bundle/long-line.test.ts",
  "lib/bundle/text-stream.test.ts",
];
const REPAIR = [
  "lib/repair/form.test.ts",
  "lib/repair/kinds.test.ts",
  "lib/repair/resume.test.ts",
  "lib/repair/undo.test.ts",
];

/**
 * Each mutated file, in the order a full run takes them, with the tests that run against its mutants:
 * those of the file itself and of its closest callers. A static mutant (a module-level constant such as
 * a pattern) runs every one of them, so the lists are kept tight.
 */
export const TARGETS = [
  ["lib/fs/lock.ts", ["lib/fs/lock.test.ts", "lib/fs/lock-rules.test.ts", "lib/fs/home-lock.test.ts"]],
  [
    "lib/fs/home-lock.ts",
    [
      "lib/fs/home-lock.test.ts",
      "lib/fs/home-lock-faults.test.ts",
      "lib/fs/home-lock-wait.test.ts",
      "lib/fs/lock-rules.test.ts",
    ],
  ],
  ["lib/fs/atomic.ts", ["lib/fs/atomic.test.ts"]],
  ["lib/fs/open-regular.ts", ["lib/fs/open-regular.test.ts"]],
  ["lib/fs/safe-path.ts", ["lib/fs/safe-path.test.ts"]],
  ["lib/fs/lock-leftovers.ts", ["lib/fs/lock-leftovers.test.ts", "lib/fs/lock-leftovers-race.test.ts"]],
  ["lib/chats/names.ts", ["lib/chats/names.test.ts", "lib/chats/folder-scan.test.ts"]],
  ["lib/chats/checkpoint.ts", ["lib/chats/checkpoint.test.ts", "lib/chats/checkpoint-judge.test.ts"]],
  ["lib/chats/zstd/decode.ts", ["lib/chats/zstd/*.test.ts", "lib/chats/limits.test.ts"]],
  ["lib/bundle/detectors.ts", ["lib/bundle/detectors.test.ts"]],
  [
    "lib/bundle/redactor.ts",
    ["lib/bundle/redactor.test.ts", "lib/bundle/detectors.test.ts", "lib/bundle/text-stream.test.ts"],
  ],
  // Its own tests only (small logs written by hand, seconds in all): the bundle's tests (BUNDLE) take minutes
  // and cover nearly every mutant, which made a run of hours on two cores (over an hour with only
  // create.test.ts and stage.test.ts added).
  [
    "lib/bundle/redact-log.ts",
    [
      "lib/bundle/redact-log.test.ts",
      "lib/bundle/redact-log-frames.test.ts",
      "lib/bundle/redact-log-again.test.ts",
      "lib/bundle/redact-log-edges.test.ts",
      "lib/bundle/redact-log-restart.test.ts",
      "lib/bundle/redact-log-copy.test.ts",
    ],
  ],
  ["lib/bundle/redact-memory.ts", ["lib/bundle/redact-memory.test.ts", ...BUNDLE]],
  [
    "lib/bundle/unpack.ts",
    ["lib/bundle/unpack.test.ts", "lib/bundle/unpack-race.test.ts", "lib/bundle/notes.test.ts", ...BUNDLE],
  ],
  ["lib/repair/undo.ts", ["lib/repair/undo.test.ts", "lib/repair/kinds.test.ts"]],
  ["lib/repair/engine.ts", ["lib/repair/engine.test.ts", ...REPAIR]],
  ["lib/repair/journal.ts", ["lib/repair/journal.test.ts", ...REPAIR]],
  ["lib/repair/locks.ts", ["lib/repair/locks.test.ts", ...REPAIR]],
  [
    "lib/memory/limits.ts",
    [
      "lib/memory/limits.test.ts",
      "lib/memory/format.test.ts",
      "lib/memory/parse.test.ts",
      "lib/memory/limits-on-disk.test.ts",
    ],
  ],
  ["lib/memory/format.ts", ["lib/memory/format.test.ts"]],
  ["lib/memory/parse.ts", ["lib/memory/parse.test.ts", "lib/memory/limits-on-disk.test.ts"]],
  [
    "lib/memory/history.ts",
    ["lib/memory/history.test.ts", "lib/memory/history.property.test.ts", "lib/memory/store.test.ts"],
  ],
  [
    "lib/memory/change.ts",
    ["lib/memory/change-edges.test.ts", "lib/memory/change.test.ts", "lib/memory/commit-order.test.ts"],
  ],
].map(([file, tests]) => ({ file, tests }));
