import { afterEach, describe, expect, it } from "vitest";
import { MISSING_ROOT, requireHome, requireLogs, requireState } from "./roots";

const saved = { ...process.env };
afterEach(() => {
  for (const key of ["ODA_HOME", "ODA_LOG_DIR", "ODA_ADMIN_STATE"]) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
});

describe("the roots every action, route and page needs", () => {
  it("refuses a missing root with one code and one sentence each", () => {
    delete process.env.ODA_HOME;
    delete process.env.ODA_LOG_DIR;
    delete process.env.ODA_ADMIN_STATE;
    expect(requireHome).toThrow(expect.objectContaining({ code: "not_found", message: MISSING_ROOT.home }));
    expect(requireLogs).toThrow(expect.objectContaining({ code: "not_found", message: MISSING_ROOT.logs }));
    expect(requireState).toThrow(expect.objectContaining({ code: "not_found", message: MISSING_ROOT.state }));
    expect(MISSING_ROOT.home).toBe("No Oda home is set: start the dashboard with --home DIR or ODA_HOME.");
  });

  it("gives each root, the state folder defaulting to <home>/.oda-admin", () => {
    process.env.ODA_HOME = "/tmp/oda-home";
    process.env.ODA_LOG_DIR = "/tmp/oda-logs";
    delete process.env.ODA_ADMIN_STATE;
    expect([requireHome(), requireLogs(), requireState()]).toEqual([
      "/tmp/oda-home",
      "/tmp/oda-logs",
      "/tmp/oda-home/.oda-admin",
    ]);
  });
});
