"use client";

import { useRouter } from "next/navigation";
import {
  createContext,
  type ReactNode,
  type RefObject,
  useCallback,
  useContext,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from "react";
import { Button } from "@/components/ui/button";

/**
 * Keyboard shortcuts, lnav-style: one listener for the whole page, groups of
 * shortcuts registered by the components on it, and `?` listing every one
 * of them. Nothing fires while a field has the focus, a modifier is held or
 * another dialog is open.
 */

/** One shortcut: `keys` as `KeyboardEvent.key` names them, a two-key sequence spaced (`g c`). */
export interface Shortcut {
  keys: string;
  label: string;
  run: () => void;
}

interface Group {
  name: string;
  shortcuts: RefObject<Shortcut[]>;
}

interface Registry {
  add: (group: Group) => () => void;
}

const ShortcutContext = createContext<Registry | null>(null);

/** A sequence's first key waits this long for its second. */
const SEQUENCE_MS = 1500;

/** The sections of the main navigation that `g <key>` opens, by the label of their link. */
const SECTIONS = [
  { key: "c", label: "Chats", path: "/chats" },
  { key: "m", label: "Memory", path: "/memory" },
  { key: "i", label: "Insights", path: "/insights" },
  { key: "s", label: "Support", path: "/support" },
] as const;

/** True when typing goes into `target`: a field, an editable element or a select. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === "TEXTAREA" || tag === "SELECT") return true;
  if (tag !== "INPUT") return false;
  const type = (target as HTMLInputElement).type;
  return !["button", "checkbox", "radio", "submit", "reset", "range", "color", "file"].includes(type);
}

/**
 * The address of a section as the page's own main navigation links it (the
 * navigation knows the source the page is on), or its plain path.
 */
function sectionHref(label: string, path: string): string {
  for (const link of document.querySelectorAll<HTMLAnchorElement>('nav[aria-label="Main"] a')) {
    if (link.textContent?.trim() === label) return link.getAttribute("href") ?? path;
  }
  return path;
}

/** Registers a group of shortcuts while the calling component is on the page; the latest `shortcuts` run. */
export function useShortcuts(name: string, shortcuts: Shortcut[]): void {
  const registry = useContext(ShortcutContext);
  const ref = useRef(shortcuts);
  ref.current = shortcuts;
  useEffect(() => registry?.add({ name, shortcuts: ref }), [registry, name]);
}

/** The page's shortcut listener and its `?` overlay; the global shortcuts are its own first group. */
export function ShortcutsProvider({ children }: { children: ReactNode }) {
  const router = useRouter();
  const [groups, setGroups] = useState<Group[]>([]);
  const [open, setOpen] = useState(false);
  const registry = useMemo<Registry>(
    () => ({
      add: (group) => {
        setGroups((all) => [...all, group]);
        return () => setGroups((all) => all.filter((g) => g !== group));
      },
    }),
    [],
  );
  const global = useRef<Shortcut[]>([]);
  global.current = [
    { keys: "?", label: "Show these shortcuts", run: () => setOpen(true) },
    {
      keys: "/",
      label: "Search: the page's search field, or the Search page",
      run: () => {
        const field = document.querySelector<HTMLInputElement>('main input[type="search"]');
        if (field && field.offsetParent !== null) field.focus();
        else router.push(sectionHref("Search", "/search"));
      },
    },
    ...SECTIONS.map((s) => ({
      keys: `g ${s.key}`,
      label: `Go to ${s.label}`,
      run: () => router.push(sectionHref(s.label, s.path)),
    })),
  ];
  const all = useMemo(() => [{ name: "Everywhere", shortcuts: global }, ...groups], [groups]);

  const pending = useRef<{ key: string; at: number } | null>(null);
  const onKey = useCallback(
    (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
      if (isTyping(e.target) || document.querySelector("dialog[open]")) return;
      // Enter on a link or a button is theirs.
      if (e.key === "Enter" && e.target instanceof Element && e.target.closest("a, button, summary")) return;
      const first = pending.current;
      pending.current = null;
      // Page groups first (the last registered wins), then the global ones.
      const list = [...groups].reverse().flatMap((g) => g.shortcuts.current);
      list.push(...global.current);
      if (first && Date.now() - first.at < SEQUENCE_MS) {
        const sequence = list.find((s) => s.keys === `${first.key} ${e.key}`);
        if (sequence) {
          e.preventDefault();
          sequence.run();
          return;
        }
      }
      const single = list.find((s) => s.keys === e.key);
      if (single) {
        e.preventDefault();
        single.run();
      }
      // A key that starts a sequence also waits for its second key (`g` is "top" in the log and `g c` "chats").
      if (list.some((s) => s.keys.startsWith(`${e.key} `))) pending.current = { key: e.key, at: Date.now() };
    },
    [groups],
  );
  useEffect(() => {
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onKey]);

  return (
    <ShortcutContext.Provider value={registry}>
      {children}
      <ShortcutsOverlay open={open} groups={all} onClose={() => setOpen(false)} />
    </ShortcutContext.Provider>
  );
}

/** A key or a sequence as keycaps. */
function Keys({ keys }: { keys: string }) {
  return (
    <span className="whitespace-nowrap">
      {keys.split(" ").map((k, i, all) => (
        // A sequence's keys, in order: the prefix before each names it uniquely.
        <span key={all.slice(0, i + 1).join(" ")}>
          {i > 0 && <span className="sr-only"> then </span>}
          <kbd className="mr-1 rounded border border-zinc-400 bg-zinc-100 px-1.5 py-0.5 font-mono text-xs dark:border-zinc-500 dark:bg-zinc-800">
            {k}
          </kbd>
        </span>
      ))}
    </span>
  );
}

/** The `?` overlay: every shortcut of the page, by group, on the native <dialog> (Escape closes it). */
function ShortcutsOverlay({ open, groups, onClose }: { open: boolean; groups: Group[]; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onClose={onClose}
      className="m-auto max-h-[85vh] w-full max-w-xl overflow-auto rounded-lg border border-zinc-300 bg-white p-5 text-zinc-900 shadow-xl backdrop:bg-black/40 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
    >
      <h2 id={titleId} className="text-lg font-semibold">
        Keyboard shortcuts
      </h2>
      <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">
        They never fire while you type in a field. Escape closes this list.
      </p>
      {open &&
        groups.map((g) => (
          <section key={g.name} aria-label={g.name} className="mt-4">
            <h3 className="text-sm font-semibold">{g.name}</h3>
            <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
              {g.shortcuts.current.map((s) => (
                <div key={s.keys} className="contents">
                  <dt>
                    <Keys keys={s.keys} />
                  </dt>
                  <dd>{s.label}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      <div className="mt-4 flex justify-end">
        <Button onClick={onClose}>Close</Button>
      </div>
    </dialog>
  );
}
