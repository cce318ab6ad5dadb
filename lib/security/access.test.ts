import { describe, expect, it } from "vitest";
import { checkAccess, describeRefusal, isAllowedHost, isSameOrigin, isValidToken, tokenCookieName } from "./access";

const config = { token: "a".repeat(64), port: "4377" };
const good = { method: "GET", host: "127.0.0.1:4377", origin: null, presentedToken: config.token };

describe("access rules", () => {
  it("accepts the three loopback names at the server's own port only", () => {
    expect(isAllowedHost("127.0.0.1:4377", "4377")).toBe(true);
    expect(isAllowedHost("localhost:4377", "4377")).toBe(true);
    expect(isAllowedHost("[::1]:4377", "4377")).toBe(true);
    expect(isAllowedHost("127.0.0.1:4378", "4377")).toBe(false);
    expect(isAllowedHost("evil.example", "4377")).toBe(false);
    expect(isAllowedHost("evil.example:4377", "4377")).toBe(false);
    expect(isAllowedHost("127.0.0.1.evil.example:4377", "4377")).toBe(false);
    expect(isAllowedHost(null, "4377")).toBe(false);
  });

  it("compares tokens exactly", () => {
    expect(isValidToken(config.token, config.token)).toBe(true);
    expect(isValidToken(`${config.token}x`, config.token)).toBe(false);
    expect(isValidToken("", config.token)).toBe(false);
    expect(isValidToken(config.token, undefined)).toBe(false);
  });

  it("requires an Origin of this server for writes", () => {
    expect(isSameOrigin("http://127.0.0.1:4377", "127.0.0.1:4377")).toBe(true);
    expect(isSameOrigin("null", "127.0.0.1:4377")).toBe(false);
    expect(isSameOrigin("http://evil.example", "127.0.0.1:4377")).toBe(false);
    expect(isSameOrigin("https://127.0.0.1:4377", "127.0.0.1:4377")).toBe(false);
  });

  it("orders the checks Host, token, Origin", () => {
    expect(checkAccess(good, config)).toEqual({ ok: true });
    expect(checkAccess({ ...good, host: "evil.example" }, config)).toMatchObject({ status: 403, reason: "host" });
    expect(checkAccess({ ...good, presentedToken: null }, config)).toMatchObject({ status: 401, reason: "token" });
    expect(checkAccess({ ...good, method: "POST" }, config)).toMatchObject({ status: 403, reason: "origin" });
    expect(checkAccess({ ...good, method: "POST", origin: "null" }, config)).toMatchObject({ status: 403 });
    expect(checkAccess({ ...good, method: "POST", origin: "http://127.0.0.1:4377" }, config)).toEqual({ ok: true });
    expect(checkAccess(good, { ...config, token: undefined })).toMatchObject({ status: 401 });
  });

  it("refuses what another origin's page asks for, except opening a page as a whole", () => {
    const from = (site: string | null, mode: string | null, dest: string | null) =>
      checkAccess({ ...good, fetchMetadata: { site, mode, dest } }, config);
    // Another server on 127.0.0.1 is "same-site": the SameSite=Strict cookie goes along with its requests.
    expect(from("same-site", "no-cors", "image")).toMatchObject({ status: 403, reason: "cross-origin" });
    expect(from("same-site", "no-cors", "script")).toMatchObject({ status: 403, reason: "cross-origin" });
    expect(from("same-site", "cors", "empty")).toMatchObject({ status: 403, reason: "cross-origin" });
    expect(from("cross-site", "no-cors", "empty")).toMatchObject({ status: 403, reason: "cross-origin" });
    expect(from("same-site", "navigate", "iframe")).toMatchObject({ status: 403, reason: "cross-origin" });
    expect(from("same-site", "navigate", "document")).toEqual({ ok: true });
    expect(from("same-origin", "cors", "empty")).toEqual({ ok: true });
    expect(from("none", "navigate", "document")).toEqual({ ok: true });
    expect(from(null, null, null)).toEqual({ ok: true });
    expect(describeRefusal("cross-origin")).toMatch(/^Forbidden: /);
  });

  it("names the cookie after the port", () => {
    expect(tokenCookieName("4377")).toBe("oda_admin_4377");
  });
});
