"use client";

import type { RedactKind } from "@/lib/bundle/detectors";

/** A kind found by itself (a keyword is given, not chosen). */
type FoundKind = Exclude<RedactKind, "keyword">;

/** What the page lets a person choose; it becomes the CLI's scope. */
export interface ScopeForm {
  chats: "none" | "all" | "chosen";
  ids: string;
  since: string;
  memory: boolean;
  notes: boolean;
  kinds: Record<string, boolean>;
  keywords: string;
  dropText: boolean;
}

/** The redaction kinds to choose from, each described as its checkbox says it (counts name them by `KIND_NAMES`). */
export const KIND_CHOICES: Record<FoundKind, string> = {
  home: "Home folders and user names in paths",
  host: "Host names (this computer's, lock files')",
  email: "E-mail addresses",
  ip: "IP addresses",
  key: "API keys, tokens, passwords and private keys (gitleaks' rules)",
};

export const INITIAL_SCOPE: ScopeForm = {
  chats: "all",
  ids: "",
  since: "",
  memory: true,
  notes: false,
  kinds: Object.fromEntries(Object.keys(KIND_CHOICES).map((k) => [k, true])),
  keywords: "",
  dropText: false,
};

/** The form's values as the actions' scope. */
export function toScope(f: ScopeForm) {
  const list = (s: string) =>
    s
      .split(/[,\n]/)
      .map((w) => w.trim())
      .filter(Boolean);
  return {
    chats: f.chats === "all" ? ("all" as const) : f.chats === "chosen" ? list(f.ids) : null,
    since: f.since || null,
    memory: f.memory,
    notes: f.notes,
    kinds: Object.keys(KIND_CHOICES).filter((k) => f.kinds[k]) as FoundKind[],
    keywords: list(f.keywords),
    dropText: f.dropText,
  };
}

const box = "rounded-md border border-zinc-300 p-3 dark:border-zinc-700";
const input = "rounded border border-zinc-400 bg-white px-2 py-1 text-sm dark:border-zinc-600 dark:bg-zinc-900";

/** The choices: which chats, memory, which redactions, keywords, dropping texts. */
export function ScopeFields({ value, onChange }: { value: ScopeForm; onChange: (v: ScopeForm) => void }) {
  const set = (patch: Partial<ScopeForm>) => onChange({ ...value, ...patch });
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <fieldset className={box}>
        <legend className="px-1 font-semibold">Chats</legend>
        {(["all", "chosen", "none"] as const).map((c) => (
          <label key={c} className="block text-sm">
            <input type="radio" name="chats" checked={value.chats === c} onChange={() => set({ chats: c })} />{" "}
            {c === "all" ? "Every chat" : c === "chosen" ? "These chats" : "No chats"}
          </label>
        ))}
        <label className="mt-2 block text-sm">
          Chat ids (comma-separated)
          {/* Only "These chats" reads the ids: with every chat or none chosen, the field says so by being disabled. */}
          <input
            dir="auto"
            className={`${input} mt-1 block w-full disabled:cursor-not-allowed disabled:opacity-60`}
            value={value.ids}
            disabled={value.chats !== "chosen"}
            onChange={(e) => set({ ids: e.target.value })}
          />
        </label>
        <label className="mt-2 block text-sm">
          Only chats active since
          <input
            type="date"
            className={`${input} mt-1 block`}
            value={value.since}
            onChange={(e) => set({ since: e.target.value })}
          />
        </label>
        <label className="mt-3 block text-sm">
          <input type="checkbox" checked={value.memory} onChange={(e) => set({ memory: e.target.checked })} /> Memory
          sets, with their history and deleted memories
        </label>
        <label className="mt-3 block text-sm">
          <input type="checkbox" checked={value.notes} onChange={(e) => set({ notes: e.target.checked })} /> Marks and
          notes on the chosen chats (redacted like the rest)
        </label>
      </fieldset>
      <fieldset className={box}>
        <legend className="px-1 font-semibold">Redaction</legend>
        {Object.entries(KIND_CHOICES).map(([kind, label]) => (
          <label key={kind} className="block text-sm">
            <input
              type="checkbox"
              checked={value.kinds[kind] ?? false}
              onChange={(e) => set({ kinds: { ...value.kinds, [kind]: e.target.checked } })}
            />{" "}
            {label}
          </label>
        ))}
        <p id="keyword-hint" className="mt-2 text-sm text-zinc-700 dark:text-zinc-300">
          The kinds above are found by themselves. People&apos;s and companies&apos; names are not: give each one as a
          keyword.
        </p>
        <label className="mt-2 block text-sm">
          Keywords to replace too (comma-separated)
          <input
            dir="auto"
            className={`${input} mt-1 block w-full`}
            aria-describedby="keyword-hint"
            value={value.keywords}
            onChange={(e) => set({ keywords: e.target.value })}
          />
        </label>
        <label className="mt-3 block text-sm">
          <input type="checkbox" checked={value.dropText} onChange={(e) => set({ dropText: e.target.checked })} /> Drop
          every message and memory text (keep roles, sizes, times, usage and problems)
        </label>
      </fieldset>
    </div>
  );
}
