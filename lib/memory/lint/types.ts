/**
 * What memory lint reports, browser-safe: the findings the CLI prints, the
 * Memory health page lists, and `--json` gives, one shape for all three.
 */
import type { MemoryDiff } from "../../diff/memory-diff";
import type { LimitName } from "../limits";

/** A memory a finding names: enough to link to it and to act on it. */
export interface LintMemory {
  id: string;
  /** null: the global set. */
  workspace: string | null;
  title: string;
  enabled: boolean;
  /** Its share of a chat's token estimate: ceil(code points of its block / 4). */
  tokens: number;
  /** Who saved it (`ai`: the agent) and, for the agent, the chat it came from. */
  author: "user" | "ai";
  sessionId?: string;
}

/** Two memories of a near-duplicate group, their similarity and the diff from the first to the second. */
export interface NearPair {
  /** Indexes into the finding's `memories`. */
  a: number;
  b: number;
  /** Share of distinct words in common, 0 to 1, two decimals. */
  score: number;
  diff: MemoryDiff;
}

export type LintFinding =
  | {
      /** Memories whose texts are the same once case, white space and Markdown emphasis are set aside. */
      kind: "exact";
      memories: LintMemory[];
      /** True when at least two of them reach the same chat (the same set, or one global): paid for twice. */
      sameChat: boolean;
    }
  | {
      /**
       * Memories whose texts share at least the threshold of their distinct
       * words, none an exact duplicate of another (exact duplicates are their
       * own finding); `pairs` joins them all, each pair at or over the threshold.
       */
      kind: "near";
      memories: LintMemory[];
      pairs: NearPair[];
      sameChat: boolean;
    }
  | {
      /** Memories with the same title and different texts that one chat receives together. */
      kind: "conflict";
      title: string;
      memories: LintMemory[];
    }
  | {
      /** A memory turned off longer than the lint's `offDays`, counted from its `updated` (or `created`). */
      kind: "off";
      memory: LintMemory;
      since: string;
      days: number;
    }
  | {
      /** A memory over 80% of a limit: its title, its text or its file. */
      kind: "limit";
      memory: LintMemory;
      limit: Extract<LimitName, "titleMaxChars" | "textMaxChars" | "fileMaxBytes">;
      value: number;
      max: number;
    }
  | {
      /** What a chat in `workspace` (null: none) receives sits over 80% of chatMaxTokens; its costliest memories. */
      kind: "budget";
      workspace: string | null;
      tokens: number;
      limit: number;
      costliest: LintMemory[];
    }
  | {
      /** A file with a problem, a settings problem, or a set folder that cannot be read, as the doctor lists them. */
      kind: "problem";
      workspace: string | null;
      id: string | null;
      path: string;
      message: string;
      line?: number;
    };

export type LintKind = LintFinding["kind"];

/** One lint run: what it looked at, with what thresholds, and what it found. */
export interface LintReport {
  /** The sets read: null first when the global set was. */
  sets: (string | null)[];
  memories: number;
  offDays: number;
  nearThreshold: number;
  findings: LintFinding[];
  /** Findings per kind, every kind present (0 when none). */
  counts: Record<LintKind, number>;
}

/** Which sets lint reads: one workspace's chats (the global set and that workspace), every set, or the global set. */
export type LintScope = { workspace: string } | { all: true } | { global: true };

/** Share of a limit over which a memory, or a chat's payload, is reported. */
export const NEAR_LIMIT_SHARE = 0.8;
