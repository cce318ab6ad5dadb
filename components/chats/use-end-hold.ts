"use client";

import { type RefObject, useCallback, useEffect, useRef, useState } from "react";

/** What lets go of End's hold: the reader moving on by any means (a line clicked, a scrollbar dragged). */
const LET_GO = ["wheel", "touchstart", "pointerdown", "keydown"] as const;

/**
 * End's hold on a log pane, as the chat table's End holds its table: after `hold()`, the pane is kept
 * scrolled to its end and its bottom kept in the window while the page moves under it. Content above the
 * pane can arrive late (the activity strip, the chat's problems, a title that wraps) and push the pane down
 * below the anchor the browser's own scroll anchoring keeps; the last rows are measured at their real
 * heights after End. Both change the size of the pane, its list or an element holding the pane, so a
 * ResizeObserver on those sees every move; nothing polls. A wheel, a touch, a pointer press (a click on a
 * line, a drag of the scrollbar, another button) or another key lets go, before that input is handled: an
 * End pressed or clicked again holds again. A jump elsewhere calls `letGo()`.
 */
export function useEndHold(
  pane: RefObject<HTMLElement | null>,
  /** Scrolls the pane to its end (the virtualiser's own, which retargets as rows are measured). */
  toEnd: () => void,
): { held: boolean; hold: () => void; letGo: () => void } {
  const [held, setHeld] = useState(false);
  const latest = useRef(toEnd);
  latest.current = toEnd;
  useEffect(() => {
    const el = pane.current;
    if (!held || !el) return;
    const keep = () => {
      if (el.scrollTop + el.clientHeight < el.scrollHeight - 1) latest.current();
      el.scrollIntoView({ block: "nearest" });
    };
    const observer = new ResizeObserver(keep);
    // Whatever grows or shrinks before the pane changes the size of some element that holds the pane
    // (up to the document's; the body's own height is fixed at the window's).
    for (let node: Element | null = el; node; node = node.parentElement) observer.observe(node);
    if (el.firstElementChild) observer.observe(el.firstElementChild);
    const letGo = () => setHeld(false);
    // Captured on the window: before the page's own handlers, which may stop the event.
    for (const type of LET_GO) window.addEventListener(type, letGo, { capture: true, passive: true });
    return () => {
      observer.disconnect();
      for (const type of LET_GO) window.removeEventListener(type, letGo, { capture: true });
    };
  }, [held, pane]);
  return { held, hold: useCallback(() => setHeld(true), []), letGo: useCallback(() => setHeld(false), []) };
}
