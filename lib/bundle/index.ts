/**
 * `lib/bundle`: support bundles (issue 14). One `.tar.gz` with a manifest,
 * the doctor report, settings, the chosen memory sets and chat folders,
 * redacted consistently; and the checks that open one read-only.
 *
 * - `prepareBundle(roots, scope, tempNear, {version})`: everything staged and
 *   hashed, which `createBundle` writes; with `tempNear` `null`, the preview
 *   (files, sizes, replacements per kind), which only reads and counts.
 * - `readBundle(file, into?)`: verify (and unpack into a folder).
 * - `unpackBundle(file, stateDir)`: into `<state>/bundles/<name>/`.
 */

import "server-only";

export {
  type BundleProgress,
  type BundleRoots,
  type CreatedBundle,
  createBundle,
  type PreparedBundle,
  prepareBundle,
} from "./create";
export { type DetectorContext, Detectors, REDACT_KINDS, type RedactKind } from "./detectors";
export { type BundleDiff, diffBundles, formatBundleDiff } from "./diff";
export { BUNDLE_FORMAT, type Manifest, ZManifest } from "./manifest";
export { type BundleScope, planBundle } from "./plan";
export { DEFAULT_MAX_RATIO, type ExpansionLimits, expansionProblem, readBundle } from "./read";
export { type RedactAgain, redactBundleAgain } from "./redact-bundle";
export { kindsFrom, type MapEntry, Redactor } from "./redactor";
export { bundleRoots, type OpenedBundle, readOpenedBundle, unpackBundle } from "./unpack";
