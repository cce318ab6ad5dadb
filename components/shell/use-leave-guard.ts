"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { holdPopState } from "./popstate-hold";

/** The in-app link a person tried to follow while the guard was on, waiting for their answer. */
export interface LeaveGuard {
  /** The href asked about, or null when no question is open. */
  pending: string | null;
  /** Follows the link (or goes Back/Forward) after all. */
  leave: () => void;
  /** Stays on the page. */
  stay: () => void;
}

/** Where the held navigation goes: a link to push, or a history entry to traverse to. */
type Held = { href: string; key?: string };

/** The page's path, query and hash: what the guard compares and asks about. */
function localHref(url: URL): string {
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Another page than `from` (this one unless said): a change of the hash alone is not leaving. */
function isAnotherPage(url: URL, from: URL | Location = window.location): boolean {
  return url.origin !== from.origin || url.pathname !== from.pathname || url.search !== from.search;
}

/** An in-app link the click would follow: same origin, plain left click, same tab, another page. */
function internalHref(e: MouseEvent): string | null {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return null;
  const a = (e.target as Element | null)?.closest?.("a[href]");
  if (!(a instanceof HTMLAnchorElement) || (a.target && a.target !== "_self") || a.hasAttribute("download"))
    return null;
  const url = new URL(a.href, window.location.href);
  if (url.origin !== window.location.origin || !isAnotherPage(url)) return null;
  return localHref(url);
}

/** The parts of the Navigation API's `navigate` event the guard reads (TypeScript's DOM types lack it). */
interface NavigateEvent extends Event {
  readonly navigationType: "push" | "replace" | "reload" | "traverse";
  readonly destination: { readonly url: string; readonly key: string };
}

/** The parts of the Navigation API the guard uses. */
interface Navigation extends EventTarget {
  traverseTo(key: string): { finished: Promise<unknown> };
}

/** The Navigation API where the browser has it (Chromium; not every browser yet). */
function navigationApi(): Navigation | null {
  const w = window as Window & { navigation?: Navigation };
  return w.navigation ?? null;
}

/**
 * While `active` (unsaved edits), asks before leaving the page:
 * - closing, reloading or leaving the app gets the browser's own question (`beforeunload`);
 * - a click on any in-app link (the shell's navigation included) is held in the
 *   capture phase, before Next's <Link> handles it;
 * - the browser's Back and Forward are held too: through the Navigation API's
 *   cancelable `navigate` event where there is one, and otherwise by holding
 *   the `popstate` before Next's router sees it and putting this page's entry back.
 * Each waits until the person answers.
 */
export function useLeaveGuard(active: boolean): LeaveGuard {
  const router = useRouter();
  const [held, setHeld] = useState<Held | null>(null);
  const activeRef = useRef(active);
  activeRef.current = active;
  // Set once the person chose to leave: the renders before the page goes must not ask again.
  const leaving = useRef(false);
  // This page's history entry, put back when a Back/Forward could not be cancelled.
  const here = useRef<{ state: unknown; url: string } | null>(null);

  useEffect(() => {
    if (!active) return;
    here.current = { state: window.history.state, url: window.location.href };
    // New edits after a page that stayed mounted (another memory in the same editor) are guarded again.
    leaving.current = false;
  }, [active]);

  useEffect(() => {
    const guarding = () => activeRef.current && !leaving.current;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      if (!guarding()) return;
      e.preventDefault();
      // Older browsers show the dialog only when returnValue is set.
      e.returnValue = "";
    };
    const onClick = (e: MouseEvent) => {
      if (!guarding()) return;
      const href = internalHref(e);
      if (href === null) return;
      e.preventDefault();
      e.stopPropagation();
      setHeld({ href });
    };
    const onNavigate = (event: Event) => {
      const e = event as NavigateEvent;
      if (!guarding() || e.navigationType !== "traverse" || !e.cancelable) return;
      const to = new URL(e.destination.url);
      if (!isAnotherPage(to)) return;
      e.preventDefault();
      setHeld({ href: localHref(to), key: e.destination.key });
    };
    // Held before Next's router sees it (popstate-hold.ts), then this page's entry is put back.
    const onPopState = () => {
      const page = here.current;
      if (!guarding() || page === null) return false;
      // The URL has already changed to the entry traversed to.
      const to = new URL(window.location.href);
      if (!isAnotherPage(to, new URL(page.url))) return false;
      window.history.pushState(page.state, "", page.url);
      setHeld({ href: localHref(to) });
      return true;
    };
    const navigation = navigationApi();
    window.addEventListener("beforeunload", onBeforeUnload);
    document.addEventListener("click", onClick, true);
    navigation?.addEventListener("navigate", onNavigate);
    const releasePopState = holdPopState(onPopState);
    return () => {
      window.removeEventListener("beforeunload", onBeforeUnload);
      document.removeEventListener("click", onClick, true);
      navigation?.removeEventListener("navigate", onNavigate);
      releasePopState();
    };
  }, []);

  return {
    pending: held?.href ?? null,
    leave: () => {
      setHeld(null);
      if (held === null) return;
      leaving.current = true;
      const navigation = navigationApi();
      if (held.key !== undefined && navigation) void navigation.traverseTo(held.key).finished.catch(() => {});
      else router.push(held.href);
    },
    stay: () => setHeld(null),
  };
}
