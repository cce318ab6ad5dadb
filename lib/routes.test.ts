import { describe, expect, it } from "vitest";
import {
  chatDataHref,
  chatHref,
  downloadHref,
  historyHref,
  inSource,
  lineDownloadHref,
  memoryHref,
  outOfSource,
  parseCopy,
  setHref,
  sourcePrefix,
} from "./routes";

describe("routes", () => {
  it("encodes workspace keys and ids as data", () => {
    expect(setHref(null)).toBe("/memory/global");
    expect(setHref("a/b c")).toBe("/memory/workspaces/a%2Fb%20c");
    expect(memoryHref("w", "m1")).toBe("/memory/workspaces/w/m1");
    expect(historyHref(null, "m1")).toBe("/memory/global/m1/history");
    expect(historyHref(null, "m1", "2026 v")).toBe("/memory/global/m1/history?version=2026+v");
  });

  it("builds the inspector's addresses with only the parameters given", () => {
    expect(chatHref("c budget/1")).toBe("/chats/c%20budget%2F1");
    expect(chatHref("c", { line: 12, view: "raw", generation: null })).toBe("/chats/c?line=12&view=raw");
    expect(chatHref("c", { beside: "v3" })).toBe("/chats/c?beside=v3");
    expect(chatDataHref("c", "lines", { from: 0, count: 200, generation: null })).toBe(
      "/chats/c/lines?from=0&count=200",
    );
    expect(downloadHref("c", "raw", "g1")).toBe("/chats/c/download?form=raw&generation=g1");
    expect(lineDownloadHref("c", 7, null)).toBe("/chats/c/download?line=7");
  });

  it("reads ?copy= one way for the page and its routes: a copy's 0-based number, or nothing", () => {
    expect(parseCopy("0")).toBe(0);
    expect(parseCopy("3")).toBe(3);
    for (const bad of [undefined, null, "", " ", "-1", "1.5", "x", "16", "1e9"])
      expect(parseCopy(bad), String(bad)).toBe(undefined);
    expect(parseCopy("15")).toBe(15);
  });
});

describe("addresses inside a source", () => {
  it("prefixes a dashboard address once in a bundle, never in live", () => {
    const b = sourcePrefix("from-ana-2026");
    expect(b).toBe("/b/from-ana-2026");
    expect(sourcePrefix("live")).toBe("");
    expect(inSource(b, "/memory")).toBe("/b/from-ana-2026/memory");
    expect(inSource(b, "/")).toBe("/b/from-ana-2026");
    expect(inSource(b, "/?x=1")).toBe("/b/from-ana-2026?x=1");
    expect(inSource(b, inSource(b, "/chats?problems=1"))).toBe("/b/from-ana-2026/chats?problems=1");
    expect(inSource(b, "/b/other/memory")).toBe("/b/other/memory");
    expect(inSource(b, "#main")).toBe("#main");
    expect(inSource(b, "//evil.example/x")).toBe("//evil.example/x");
    expect(inSource("", "/memory")).toBe("/memory");
  });

  it("gives a bundle page's path as the pages know it", () => {
    expect(outOfSource("/b/x", "/b/x/memory/global")).toBe("/memory/global");
    expect(outOfSource("/b/x", "/b/x")).toBe("/");
    expect(outOfSource("/b/x", "/b/xy/memory")).toBe("/b/xy/memory");
    expect(outOfSource("", "/memory")).toBe("/memory");
  });
});
