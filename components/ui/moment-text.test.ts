import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { MomentText } from "./moment-text";

const render = (text: string) => renderToStaticMarkup(createElement(MomentText, { text }));
/** The text a reader sees: the markup without its tags (attributes, where the ISO time may stay, go too). */
const visible = (html: string) => html.replace(/<[^>]*>/g, "");

describe("MomentText", () => {
  it("shows each ISO moment of a lib sentence as the pages show moments, the ISO time on hover", () => {
    const html = render(
      "The search index is behind the log folder: 1 chat new since it was refreshed at 2026-12-02T00:57:17.364Z.",
    );
    expect(visible(html)).toBe(
      "The search index is behind the log folder: 1 chat new since it was refreshed at Dec 2, 2026, 12:57:17 AM UTC.",
    );
    expect(html).toContain('<time dateTime="2026-12-02T00:57:17.364Z" title="2026-12-02T00:57:17.364Z">');
  });

  it("handles several moments and offsets, and leaves a sentence without one as it is", () => {
    const html = render("held by process 7 on vm, started 2026-12-02T04:23:31+01:00): gone since 2026-12-02T04:30:00Z");
    expect(visible(html)).toBe(
      "held by process 7 on vm, started Dec 2, 2026, 3:23:31 AM UTC): gone since Dec 2, 2026, 4:30:00 AM UTC",
    );
    expect(render("No problems; 2026-12-02 is a day, not a moment.")).toBe(
      "No problems; 2026-12-02 is a day, not a moment.",
    );
  });
});
