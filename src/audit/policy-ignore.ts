/**
 * Ignore entries: which ones cover a package, and which have expired. An entry is valid
 * through its `expires` day (UTC) and stops applying the day after; an expired entry no
 * longer ignores anything, and the run fails naming it (the team must renew or remove it).
 */
import { isModuleEcosystem, osvEcosystemOfDependency, osvRulesOf } from '../ecosystems/osv-ecosystems.js';
import { packageRulesOf } from '../ecosystems/rules.js';
import type { PackageEcosystem } from '../ecosystems/types.js';
import { sanitizeForTerminal } from '../render/sanitize.js';
import type { IgnoreEntry, PackageIgnoreEntry } from './policy-schema.js';
import type { AuditEcosystem } from './types.js';

const DAY_MS = 86_400_000;

/** The first instant the entry no longer applies: midnight UTC after its expiry day. */
function endOf(expires: string): number {
  return Date.parse(`${expires}T00:00:00.000Z`) + DAY_MS;
}

export function isExpired(entry: IgnoreEntry, now: Date): boolean {
  return entry.expires !== null && now.getTime() >= endOf(entry.expires);
}

function versionMatches(ecosystem: PackageEcosystem, range: string, version: string): boolean {
  try {
    return packageRulesOf(ecosystem).registry.ranges.satisfied(version, range);
  } catch {
    return false;
  }
}

/** Whether the entry covers this package version (null version: only a name-only entry does). */
export function ignoreMatches(
  entry: PackageIgnoreEntry,
  pkg: { ecosystem: AuditEcosystem; name: string; version: string | null },
): boolean {
  if (entry.ecosystem !== null && entry.ecosystem !== pkg.ecosystem) return false;
  if (isModuleEcosystem(pkg.ecosystem)) {
    // Only a `go:` / `cargo:` entry covers a Go module or crate, at the exact version it names (or every version).
    if (entry.ecosystem === null) return false;
    const { canonicalName } = osvRulesOf(osvEcosystemOfDependency(pkg.ecosystem));
    if (canonicalName(entry.name) !== canonicalName(pkg.name)) return false;
    return entry.range === null || entry.range === pkg.version;
  }
  const { canonicalName } = packageRulesOf(pkg.ecosystem);
  const sameName = canonicalName(entry.name) === canonicalName(pkg.name);
  if (!sameName) return false;
  if (entry.range === null) return true;
  return pkg.version !== null && versionMatches(pkg.ecosystem, entry.range, pkg.version);
}

/** The first unexpired package entry covering the package, or null (MCP entries never cover a package). */
export function findIgnore(
  entries: readonly IgnoreEntry[],
  pkg: { ecosystem: AuditEcosystem; name: string; version: string | null },
  now: Date,
): PackageIgnoreEntry | null {
  return entries.find((entry): entry is PackageIgnoreEntry => entry.kind === 'package' && !isExpired(entry, now) && ignoreMatches(entry, pkg)) ?? null;
}

/** How an entry is named in messages: `"request@2.88.2"`, `mcp "box" in .mcp.json`. */
export function ignoreLabel(entry: IgnoreEntry): string {
  if (entry.kind === 'package') return `"${entry.package}"`;
  return `mcp "${entry.mcp}"${entry.file === null ? '' : ` in ${entry.file}`}`;
}

/** One line per expired entry, naming the file, the entry and its reason. */
export function expiredIgnoreMessages(entries: readonly IgnoreEntry[], now: Date, source: string | null): string[] {
  return entries.flatMap((entry, index) =>
    isExpired(entry, now)
      ? [
          sanitizeForTerminal(
            `${source ?? 'policy'}: ignore[${index}] ${ignoreLabel(entry)} expired on ${entry.expires ?? ''} (reason: ${entry.reason}); renew or remove it`,
          ),
        ]
      : [],
  );
}
