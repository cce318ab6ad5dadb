"use client";

/**
 * Back and Forward in browsers without the Navigation API are told to a page
 * only by `popstate`, after the URL has already changed. Next's router handles
 * that event with a listener on window that it adds once the app has hydrated,
 * and listeners on window run in the order they were added, whatever their
 * phase. So the one listener that may hold a Back/Forward is added here, when
 * this module is first evaluated (the root layout's providers import it, before
 * hydration), and it asks whichever page holds it now.
 */

/** Answers true when it has held the traversal (Next's router must not see it). */
type Holder = (e: PopStateEvent) => boolean;

let holder: Holder | null = null;

if (typeof window !== "undefined") {
  window.addEventListener("popstate", (e) => {
    if (holder?.(e)) e.stopImmediatePropagation();
  });
}

/** Makes `hold` the one that is asked about each Back/Forward; returns the release. */
export function holdPopState(hold: Holder): () => void {
  holder = hold;
  return () => {
    if (holder === hold) holder = null;
  };
}
