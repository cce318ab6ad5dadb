import { describe, expect, it } from "vitest";
import { exactMoment, formatMoment } from "./dates";

describe("formatMoment", () => {
  it("names the time zone it shows the moment in", () => {
    const iso = "2026-11-29T18:24:08.000Z";
    expect(formatMoment(iso, { locale: "en-US", timeZone: "UTC" })).toBe("Nov 29, 2026, 6:24:08 PM UTC");
    expect(formatMoment(iso, { locale: "en-US", timeZone: "Asia/Tokyo" })).toBe("Nov 30, 2026, 3:24:08 AM GMT+9");
    expect(formatMoment(iso, { locale: "de-DE", timeZone: "Europe/Berlin" })).toBe("29. Nov. 2026, 19:24:08 MEZ");
  });

  it("shows a missing moment as a dash and an unreadable one as it is", () => {
    expect(formatMoment(null)).toBe("–");
    expect(formatMoment("")).toBe("–");
    expect(formatMoment("yesterday")).toBe("yesterday");
  });
});

describe("exactMoment", () => {
  it("gives the ISO time in UTC for the hover title, whatever offset it was written with", () => {
    expect(exactMoment("2026-11-30T03:24:08+09:00")).toBe("2026-11-29T18:24:08.000Z");
    expect(exactMoment("not a date")).toBeUndefined();
  });
});
