import { describe, expect, it } from "vitest";
import { checkLimitValue, DEFAULT_LIMITS, LIMIT_NAMES, LIMIT_RANGES, type LimitName } from "./limits";

// The contract's table (docs/file-contract.md, Roots), written out here apart from the code.
const CONTRACT: [LimitName, number, number, number][] = [
  ["titleMaxChars", 120, 20, 1000],
  ["textMaxChars", 2000, 100, 100000],
  ["fileMaxBytes", 65536, 1024, 1048576],
  ["chatMaxTokens", 8000, 500, 200000],
  ["versionsKept", 10, 2, 100],
];

describe("memory limits (settings.json → memory)", () => {
  it("has the contract's defaults, ranges and order, frozen", () => {
    expect(LIMIT_NAMES).toEqual(CONTRACT.map(([name]) => name));
    expect({ ...DEFAULT_LIMITS }).toEqual(Object.fromEntries(CONTRACT.map(([name, value]) => [name, value])));
    expect({ ...LIMIT_RANGES }).toEqual(Object.fromEntries(CONTRACT.map(([name, , min, max]) => [name, [min, max]])));
    expect(Object.isFrozen(DEFAULT_LIMITS)).toBe(true);
    expect(Object.isFrozen(LIMIT_RANGES)).toBe(true);
  });

  it.each(CONTRACT)(
    "%s takes %i and both ends of its range, and refuses one past each end",
    (name, value, min, max) => {
      expect(checkLimitValue(name, value)).toBeNull();
      expect(checkLimitValue(name, min)).toBeNull();
      expect(checkLimitValue(name, max)).toBeNull();
      expect(checkLimitValue(name, min - 1)).toBe(
        `memory.${name} must be a whole number from ${min} to ${max}; ${min - 1} is not.`,
      );
      expect(checkLimitValue(name, max + 1)).toBe(
        `memory.${name} must be a whole number from ${min} to ${max}; ${max + 1} is not.`,
      );
    },
  );

  it("refuses what is not a whole number, quoting it as JSON (or in words when JSON has no text for it)", () => {
    const says = (value: unknown, shown: string) =>
      expect(checkLimitValue("versionsKept", value)).toBe(
        `memory.versionsKept must be a whole number from 2 to 100; ${shown} is not.`,
      );
    says(10.5, "10.5");
    says("10", '"10"');
    says(null, "null");
    says(true, "true");
    says([10], "[10]");
    says(Number.NaN, "null");
    says(undefined, "undefined");
    says(Symbol("ten"), "Symbol(ten)"); // no JSON text: String() of it
  });
});
