/**
 * PyPI version resolution (docs/architecture.md, "Data flow"), pure: a project's releases and the PEP 440
 * specifier the user typed → the release pip would install, via @renovatebot/pep440.
 *
 * - No specifier: the newest release that is neither a pre-release nor yanked; pre-releases
 *   only when no final release exists (pip's rule).
 * - A bare version (`2.19`) means `==2.19`; `==2.19` matches `2.19.0` (PEP 440 zero padding)
 *   and its local versions (`2.19+local`); `===` is arbitrary (string) equality.
 * - PEP 592: a yanked release — and one with no files, which pip cannot see — is selected only
 *   by an exact `==` / `===` pin, and only when no other release matches it.
 * - When nothing matches, the answer says why and names the nearest existing versions.
 *
 * Release data is hostile: versions that are not PEP 440 (or absurdly long) are ignored except
 * by `===`, and nothing here throws.
 */
import * as pep440 from '@renovatebot/pep440';
import { quoteForMessage } from '../../target/syntax.js';

export type PypiResolution = { ok: true; version: string } | { ok: false; reason: string; nearest: string[] };

/** What resolution needs of a release (a `PypiRelease` fits). */
export interface ResolvableRelease {
  version: string;
  /** Every file of the release is yanked. */
  yanked: boolean;
  /** Number of files; a release with none cannot be installed (undefined = not known, assume some). */
  files?: number;
}

/** How many alternatives a failed resolution suggests. */
export const NEAREST_COUNT = 5;

/** No PEP 440 version is this long; longer strings are not handed to the parser. */
const MAX_VERSION_LENGTH = 128;
const MAX_SPEC_LENGTH = 1024;

/** A single exact pin: `==V` (no wildcard) or `===V`. */
const EXACT_PIN = /^\s*(===|==)\s*([^\s,*]+)\s*$/;
const OPERATOR = /^\s*(?:===|~=|==|!=|<=|>=|<|>)/;

/** The PEP 440 form of `version`, or null when it is not a valid (or sane) version. */
export function validPep440(version: string): string | null {
  if (typeof version !== 'string' || version.length === 0 || version.length > MAX_VERSION_LENGTH) return null;
  try {
    return pep440.valid(version);
  } catch {
    return null;
  }
}

/** PEP 440 order (negative, zero, positive), or null when either is not a valid version. */
export function comparePep440(a: string, b: string): number | null {
  if (validPep440(a) === null || validPep440(b) === null) return null;
  try {
    const order = pep440.compare(a, b);
    return Number.isFinite(order) ? Math.sign(order) : null;
  } catch {
    return null;
  }
}

/** PEP 440 pre-release or development release; false for versions that do not parse. */
export function isPep440Prerelease(version: string): boolean {
  if (validPep440(version) === null) return false;
  try {
    return pep440.explain(version)?.is_prerelease === true;
  } catch {
    return false;
  }
}

/** Sort valid versions ascending by PEP 440 (ties keep their order). */
function sortPep440(versions: readonly string[]): string[] {
  return [...versions].sort((a, b) => comparePep440(a, b) ?? 0);
}

/** The specifier as pip reads it: trimmed, a bare version turned into `==version`. */
function normaliseSpec(spec: string | undefined): string {
  const text = (spec ?? '').trim();
  if (text === '' || OPERATOR.test(text)) return text;
  return validPep440(text) !== null ? `==${text}` : text;
}

function isValidSpec(spec: string): boolean {
  if (spec.length > MAX_SPEC_LENGTH) return false;
  try {
    return pep440.validRange(spec);
  } catch {
    return false;
  }
}

function maxSatisfying(versions: readonly string[], spec: string): string | null {
  if (versions.length === 0) return null;
  try {
    return pep440.maxSatisfying([...versions], spec);
  } catch {
    return null;
  }
}

/** Resolve `spec` (undefined or empty = the default) against a project's releases. Never throws. */
export function resolvePypiVersion(releases: readonly ResolvableRelease[], spec: string | undefined): PypiResolution {
  try {
    return resolve(releases, spec);
  } catch (error) {
    return { ok: false, reason: `cannot resolve the version: ${error instanceof Error ? error.message : String(error)}`, nearest: [] };
  }
}

function resolve(releases: readonly ResolvableRelease[], rawSpec: string | undefined): PypiResolution {
  const spec = normaliseSpec(rawSpec);
  if (spec !== '' && !isValidSpec(spec)) {
    return { ok: false, reason: `invalid version specifier ${quoteForMessage(spec)}`, nearest: [] };
  }
  if (releases.length === 0) return { ok: false, reason: 'the project has no releases', nearest: [] };

  const pin = EXACT_PIN.exec(spec);
  // `===` compares strings, so it may name a release whose version is not PEP 440 at all.
  if (pin?.[1] === '===') {
    const wanted = (pin[2] ?? '').toLowerCase();
    const matches = releases.filter((r) => r.version.toLowerCase() === wanted);
    const chosen = matches.find((r) => installable(r)) ?? matches[0];
    if (chosen !== undefined) return { ok: true, version: chosen.version };
    return notFound(releases, spec, `no release is exactly ${quoteForMessage(pin[2] ?? '')}`);
  }

  const valid = releases.filter((r) => validPep440(r.version) !== null);
  const chosen = maxSatisfying(
    valid.filter((r) => installable(r)).map((r) => r.version),
    spec,
  );
  if (chosen !== null) return { ok: true, version: chosen };

  const withheld = valid.filter((r) => !installable(r)).map((r) => r.version);
  const withheldMatch = spec === '' ? null : maxSatisfying(withheld, spec);
  if (withheldMatch !== null && pin !== null) return { ok: true, version: withheldMatch };

  if (spec === '') {
    const reason = valid.length === 0 ? 'the project has no release with a PEP 440 version' : 'every release is yanked or has no files';
    return notFound(releases, spec, reason);
  }
  const reason =
    withheldMatch !== null
      ? `only yanked (or file-less) releases match ${quoteForMessage(spec)}; pin one exactly with == to use it`
      : `no release matches ${quoteForMessage(spec)}`;
  return notFound(releases, spec, reason);
}

/** Not yanked, and has files (or the count is not known). */
function installable(release: ResolvableRelease): boolean {
  return !release.yanked && release.files !== 0;
}

function notFound(releases: readonly ResolvableRelease[], spec: string, reason: string): PypiResolution {
  return { ok: false, reason, nearest: nearestVersions(releases, spec) };
}

/**
 * The existing versions nearest to what `spec` names (its first clause's version), in PEP 440
 * order; installable final releases preferred. With no version to aim at, the newest ones.
 */
export function nearestVersions(releases: readonly ResolvableRelease[], spec: string, count = NEAREST_COUNT): string[] {
  const valid = releases.filter((r) => validPep440(r.version) !== null);
  const installableOnes = valid.filter((r) => installable(r));
  const finals = installableOnes.filter((r) => !isPep440Prerelease(r.version));
  const chosen = finals.length > 0 ? finals : installableOnes.length > 0 ? installableOnes : valid;
  const pool = sortPep440(chosen.map((r) => r.version));
  if (pool.length <= count) return pool;

  const target = targetVersion(spec);
  if (target === null) return pool.slice(-count);
  // Index of the first version above the target; walk outwards from there.
  let above = pool.findIndex((v) => (comparePep440(v, target) ?? 0) > 0);
  if (above === -1) above = pool.length;
  let low = above - 1;
  let high = above;
  const picked: number[] = [];
  while (picked.length < count && (low >= 0 || high < pool.length)) {
    if (low >= 0) picked.push(low--);
    if (picked.length < count && high < pool.length) picked.push(high++);
  }
  return picked.sort((a, b) => a - b).map((i) => pool[i] as string);
}

/** The version named by the first clause of a specifier (`.*` dropped), or null. */
function targetVersion(spec: string): string | null {
  const first = spec.split(',')[0] ?? '';
  const version = first.replace(OPERATOR, '').replace(/\.\*\s*$/, '').trim();
  return validPep440(version) !== null ? version : null;
}
