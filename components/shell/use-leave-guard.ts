"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";

/** The in-app link a person tried to follow while the guard was on, waiting for their answer. */
export interface LeaveGuard {
  /** The href asked about, or null when no question is open. */
  pending: string | null;
  /** Follows the link after all. */
  leave: () => void;
  /** Stays on the page. */
  stay: () => void;
}

/** An in-app link the click would follow: same origin, plain left click, same tab, another page. */
function internalHref(e: MouseEvent): string | null {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return null;
  const a = (e.target as Element | null)?.closest?.("a[href]");
  if (!(a instanceof HTMLAnchorElement) || (a.target && a.target !== "_self") || a.hasAttribute("download"))
    return null;
  const url = new URL(a.href, window.location.href);
  if (url.origin !== window.location.origin) return null;
  const here = window.location;
  if (url.pathname === here.pathname && url.search === here.search) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * While `active` (unsaved edits), asks before leaving the page: closing or
 * reloading the tab gets the browser's own question (`beforeunload`), and a
 * click on any in-app link (the shell's navigation included) is held in the
 * capture phase, before Next's <Link> handles it, until the person answers.
 */
export function useLeaveGuard(active: boolean): LeaveGuard {
  const router = useRouter();
  const [pending, setPending] = useState<string | null>(null);
  const activeRef = useRef(active);
  activeRef.current = active;

  useEffect(() => {
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      if (!activeRef.current) return;
      e.preventDefault();
      // Older browsers show the dialog only when returnValue is set.
      e.returnValue = "";
    };
    const onClick = (e: MouseEvent) => {
      if (!activeRef.current) return;
      const href = internalHref(e);
      if (href === null) return;
      e.preventDefault();
      e.stopPropagation();
      setPending(href);
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    document.addEventListener("click", onClick, true);
    return () => {
      window.removeEventListener("beforeunload", onBeforeUnload);
      document.removeEventListener("click", onClick, true);
    };
  }, []);

  return {
    pending,
    leave: () => {
      const href = pending;
      setPending(null);
      activeRef.current = false;
      if (href) router.push(href);
    },
    stay: () => setPending(null),
  };
}
