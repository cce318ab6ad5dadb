import type { RedactKind } from "./detectors";

/**
 * What each redaction kind is called wherever values are counted: the Support
 * page's preview and the bundle's redaction report (its Home and `bundle
 * verify`), so the preview's rows are the report's rows.
 */
export const KIND_NAMES: Record<RedactKind, string> = {
  home: "User names in home folder paths",
  host: "Host names",
  email: "E-mail addresses",
  ip: "IP addresses",
  key: "Keys, tokens and passwords",
  keyword: "Keywords",
};

/** The name of `kind`, or the kind itself when it is one this version does not know (an older or newer bundle). */
export function kindName(kind: string): string {
  return (KIND_NAMES as Record<string, string>)[kind] ?? kind;
}
