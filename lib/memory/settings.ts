import { promises as fsp } from "node:fs";
import { OdaError } from "../errors";
import { resolveInside, writeFileAtomic } from "../fs";
import { readSettingsFile } from "../fs/settings-file";
import { checkLimitValue, DEFAULT_LIMITS, LIMIT_NAMES, type LimitName, type Limits } from "./limits";

/** A problem of `settings.json`: the path (relative to the Oda home) and the sentence. */
export interface SettingsProblem {
  path: string;
  message: string;
  /** The setting concerned, e.g. `memory.versionsKept`. */
  key?: string;
}

/** What `settings.json` says, with defaults filled in for anything missing or wrong. */
export interface Settings {
  limits: Limits;
  /** `sessions.compress`: whether the log folder keeps zstd-compressed logs. */
  compress: boolean;
  problems: SettingsProblem[];
}

const SETTINGS = "settings.json";

async function readSettingsJson(home: string): Promise<{ value: unknown; problem?: string }> {
  const read = readSettingsFile(await resolveInside(home, SETTINGS));
  if (read.ok) return { value: read.value };
  if (read.reason === "not-regular")
    return {
      value: {},
      problem: `settings.json cannot be read (it is ${read.kind}, not a regular file); the defaults are used.`,
    };
  if (read.reason === "system")
    return { value: {}, problem: `settings.json cannot be read (${read.code ?? "error"}); the defaults are used.` };
  return { value: {}, problem: `settings.json is not valid JSON (${read.message}); the defaults are used.` };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Reads `<home>/settings.json` (missing = all defaults). A value outside its
 * range or of the wrong type is reported as a problem and its default used.
 */
export async function readSettings(home: string): Promise<Settings> {
  const { value, problem } = await readSettingsJson(home);
  const problems: SettingsProblem[] = problem ? [{ path: SETTINGS, message: problem }] : [];
  const limits: Limits = { ...DEFAULT_LIMITS };
  let compress = true;
  if (!isRecord(value)) {
    problems.push({ path: SETTINGS, message: "settings.json must hold a JSON object; the defaults are used." });
    return { limits, compress, problems };
  }
  const memory = value.memory;
  if (memory !== undefined && !isRecord(memory)) {
    problems.push({ path: SETTINGS, key: "memory", message: "memory must be a JSON object; the defaults are used." });
  } else if (memory) {
    for (const name of LIMIT_NAMES) {
      if (!Object.hasOwn(memory, name)) continue;
      const message = checkLimitValue(name, memory[name]);
      if (message) {
        problems.push({
          path: SETTINGS,
          key: `memory.${name}`,
          message: `${message} The default ${DEFAULT_LIMITS[name]} is used.`,
        });
      } else limits[name] = memory[name] as number;
    }
  }
  const sessions = value.sessions;
  if (sessions !== undefined && !isRecord(sessions)) {
    problems.push({
      path: SETTINGS,
      key: "sessions",
      message: "sessions must be a JSON object; the defaults are used.",
    });
  } else if (sessions && Object.hasOwn(sessions, "compress")) {
    if (typeof sessions.compress === "boolean") compress = sessions.compress;
    else
      problems.push({
        path: SETTINGS,
        key: "sessions.compress",
        message: `sessions.compress must be true or false; ${JSON.stringify(sessions.compress)} is not. The default true is used.`,
      });
  }
  return { limits, compress, problems };
}

/**
 * Saves memory limits (and `sessions.compress`) into `settings.json`, keeping
 * every other key. Refuses (`refused`, with the field) any value out of range;
 * nothing is written then.
 */
export async function writeSettings(home: string, values: Partial<Limits> & { compress?: boolean }): Promise<Settings> {
  for (const name of LIMIT_NAMES) {
    if (values[name] === undefined) continue;
    const message = checkLimitValue(name, values[name]);
    if (message) throw new OdaError("refused", message, { field: name });
  }
  if (values.compress !== undefined && typeof values.compress !== "boolean") {
    throw new OdaError("refused", "sessions.compress must be true or false.", { field: "compress" });
  }
  const { value, problem } = await readSettingsJson(home);
  if (problem) throw new OdaError("unusable", problem.replace(/; the defaults are used\.$/, "; fix the file first."));
  const root = isRecord(value) ? { ...value } : {};
  const memory = isRecord(root.memory) ? { ...root.memory } : {};
  for (const name of LIMIT_NAMES) if (values[name] !== undefined) memory[name as LimitName] = values[name];
  root.memory = memory;
  if (values.compress !== undefined)
    root.sessions = { ...(isRecord(root.sessions) ? root.sessions : {}), compress: values.compress };
  await fsp.mkdir(home, { recursive: true });
  await writeFileAtomic(await resolveInside(home, SETTINGS), `${JSON.stringify(root, null, 2)}\n`);
  return readSettings(home);
}
