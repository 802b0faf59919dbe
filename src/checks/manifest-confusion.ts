/**
 * manifest-confusion: whether the package.json inside the tarball — the one npm installs, whose
 * scripts it runs — says what the registry's manifest says. A packument can list no scripts
 * while the tarball runs a postinstall; it can say `hasInstallScript` while showing none; name,
 * version, dependencies or `bin` can differ. Any difference is a finding (docs/security.md).
 */
import type { RegistryFacts, TarballFacts, TarballManifest } from '../evidence/schema.js';
import semver from 'semver';
import { defineCheck, type CheckOutcome } from './define.js';
import { truncate } from './lib/text.js';

/** Differences listed in the evidence at most. */
const MAX_LISTED = 20;
const MAX_TEXT = 80;

function describe(value: string): string {
  return JSON.stringify(truncate(value, MAX_TEXT));
}

/** `a → b` for a record's added, removed and changed keys. */
function recordDifferences(label: string, registry: Record<string, string>, tarball: Record<string, string>): string[] {
  const out: string[] = [];
  for (const key of new Set([...Object.keys(registry), ...Object.keys(tarball)])) {
    const before = Object.hasOwn(registry, key) ? registry[key] : undefined;
    const after = Object.hasOwn(tarball, key) ? tarball[key] : undefined;
    if (before === after) continue;
    if (before === undefined) out.push(`${label} ${describe(key)} only in the tarball (${describe(after ?? '')})`);
    else if (after === undefined) out.push(`${label} ${describe(key)} only in the registry`);
    else out.push(`${label} ${describe(key)}: registry ${describe(before)}, tarball ${describe(after)}`);
  }
  return out;
}

/**
 * The version the registry records for a package.json's version: npm publishes the version
 * cleaned (`v1.2.3` and `1.2.3+build.5` are published as `1.2.3`), while the tarball keeps it
 * as written — not a difference (docs/security.md, "Manifest confusion").
 */
function publishedVersion(version: string): string {
  return semver.clean(version) ?? version;
}

/** What the tarball's package.json says differently from the packument, one phrase each. */
export function manifestDifferences(registry: RegistryFacts, manifest: TarballManifest, bindingGyp: boolean): string[] {
  const out: string[] = [];
  if (manifest.name !== registry.name) out.push(`name: registry ${describe(registry.name)}, tarball ${manifest.name === null ? 'none' : describe(manifest.name)}`);
  if (manifest.version === null || publishedVersion(manifest.version) !== registry.version) out.push(`version: registry ${describe(registry.version)}, tarball ${manifest.version === null ? 'none' : describe(manifest.version)}`);
  out.push(...recordDifferences('install script', registry.installScripts, manifest.installScripts));
  out.push(...recordDifferences('dependency', registry.dependencyRanges, manifest.dependencies));
  if (manifest.hasBin !== registry.hasBin) out.push(manifest.hasBin ? 'bin only in the tarball' : 'bin only in the registry');
  const scripts = Object.keys(manifest.installScripts).length > 0 || Object.keys(registry.installScripts).length > 0;
  if (registry.hasInstallScript === true && !scripts && !bindingGyp) out.push('the registry says the version has an install script; neither manifest shows one');
  if (registry.hasInstallScript === false && Object.keys(manifest.installScripts).length > 0) out.push('the registry says the version has no install script; the tarball has one');
  // npm and nerq keep a repeated key's last value; a scanner that keeps the first reads other scripts or dependencies.
  for (const repeat of manifest.repeatedKeys ?? []) out.push(`${describe(repeat.key)} twice in the tarball's package.json: first ${describe(repeat.first)}, last ${describe(repeat.last)}`);
  return out;
}

/**
 * What a file another file system reads as package.json (`PACKAGE.JSON` on macOS or Windows, and
 * so on: src/sources/npm/tarball.ts) says differently from the packument: npm there runs its
 * scripts. One that cannot be read is a difference too.
 */
function aliasDifferences(registry: RegistryFacts, tarball: TarballFacts): string[] {
  return tarball.manifestAliases.flatMap((alias) => {
    const where = `${describe(alias.path)} (package.json on a case-insensitive or Windows file system)`;
    if (alias.manifest === null) return [`${where}: not readable (${alias.problem ?? 'not read'})`];
    return manifestDifferences(registry, alias.manifest, tarball.bindingGyp).map((d) => `${where}: ${d}`);
  });
}

/**
 * Packages shipped under the tarball's `node_modules/` that its package.json does not bundle
 * (`bundleDependencies`): npm's packing never puts them there, yet Node loads them from the
 * package's folder (docs/security.md, "Bundled dependencies"). One phrase per top folder.
 */
function undeclaredBundled(tarball: TarballFacts): string[] {
  const tops = new Set<string>();
  for (const folder of tarball.bundled) {
    if (folder.declared) continue;
    const top = /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(folder.path)?.[1];
    if (top !== undefined) tops.add(top);
  }
  return [...tops].map((top) => `${describe(`node_modules/${top}`)} shipped in the tarball, not in its bundleDependencies`);
}

export default defineCheck({
  id: 'manifest-confusion',
  dimension: 'security',
  weight: 2,
  needs: ['registry', 'tarball'],
  holdsWhenUnread: 'the tarball was not read to its end: npm extracts all of it, and a package.json past what nerq read may run install scripts the registry does not show',
  title: 'Manifest confusion',
  description:
    "Compares the package.json inside the tarball (what npm installs, and whose install scripts it runs) with the registry's manifest (npm only): name, version, install scripts, dependencies, `bin`, and the registry's `hasInstallScript`; a key the tarball's package.json names twice with different values (among name, version, main, bin, scripts, the dependency maps, exports and types, or inside bin, scripts and the dependency maps: npm keeps the last, other parsers the first) is a difference; a package shipped under the tarball's `node_modules/` that its package.json does not bundle is a difference too. " +
    'The same scores 100; any difference scores 0 and holds the verdict at CAUTION (the metadata nerq and reviewers read is not what npm installs); unknown when the tarball has no readable package.json (holding the verdict at CAUTION when it is over the size nerq reads), and unknown holding the verdict at CAUTION when the tarball was not read to its end (over a cap: npm extracts all of it).',
  messages: {
    same: "The tarball's package.json matches the registry's manifest",
    different: "The tarball's package.json differs from the registry's manifest: {summary}",
    unreadable: "The tarball's package.json could not be compared: {problem}",
  },
  evaluate: ({ registry, tarball }): CheckOutcome<'same' | 'different' | 'unreadable'> => {
    const aliases = aliasDifferences(registry, tarball);
    if (tarball.manifest === null && aliases.length === 0) {
      const problem = tarball.manifestProblem ?? 'not read';
      // npm reads a package.json of any size: one too large for nerq may run scripts nobody saw.
      if (tarball.manifestOverCap) return { score: null, messageId: 'unreadable', data: { problem }, holdVerdict: `the tarball's ${problem}: npm reads it whole, and it may run install scripts the registry does not show; a release whose package.json can be read would lift this` };
      return { score: null, messageId: 'unreadable', data: { problem } };
    }
    const differences = [...(tarball.manifest === null ? [] : [...manifestDifferences(registry, tarball.manifest, tarball.bindingGyp), ...undeclaredBundled(tarball)]), ...aliases];
    if (differences.length === 0) return { score: 100, messageId: 'same', data: { differences: [] } };
    const listed = differences.slice(0, MAX_LISTED);
    const summary = `${listed.slice(0, 3).join('; ')}${differences.length > 3 ? `; ${differences.length - 3} more` : ''}`;
    return {
      score: 0,
      messageId: 'different',
      data: { differences: listed, count: differences.length, summary },
      holdVerdict: `the tarball's package.json differs from the registry's manifest (${summary}); a release whose tarball says what the registry says would lift this`,
    };
  },
});
