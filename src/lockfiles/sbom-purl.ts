/**
 * Package URLs in SBOMs: only `pkg:npm` and `pkg:pypi` are audited; other types are counted
 * so the note can say what was left out.
 */
import { valid as validPep440 } from '@renovatebot/pep440';
import semver from 'semver';
import { pep503 } from '../ecosystems/pypi/name.js';
import { splitPurl } from '../target/purl.js';
import type { AuditEcosystem } from '../audit/types.js';
import { quote } from './text.js';

export type PurlOutcome =
  | { kind: 'package'; ecosystem: AuditEcosystem; name: string; version: string; resolved: string | null }
  | { kind: 'other-type'; type: string }
  | { kind: 'unusable'; reason: string }
  | { kind: 'invalid'; reason: string };

export function purlPackage(purl: string): PurlOutcome {
  const parts = splitPurl(purl);
  if ('error' in parts) return { kind: 'invalid', reason: parts.error };
  if (parts.type !== 'npm' && parts.type !== 'pypi') return { kind: 'other-type', type: parts.type };
  const resolved = parts.qualifiers.repository_url ?? parts.qualifiers.download_url ?? null;
  if (parts.version === undefined) return { kind: 'unusable', reason: 'no version in the package URL' };
  if (parts.type === 'npm') {
    const version = semver.valid(parts.version);
    if (version === null) return { kind: 'unusable', reason: `version ${quote(parts.version)} is not a registry version` };
    const scope = parts.namespace === undefined ? '' : `${parts.namespace.startsWith('@') ? '' : '@'}${parts.namespace}/`;
    return { kind: 'package', ecosystem: 'npm', name: `${scope}${parts.name}`, version, resolved };
  }
  if (validPep440(parts.version) === null) return { kind: 'unusable', reason: `version ${quote(parts.version)} is not a PEP 440 version` };
  return { kind: 'package', ecosystem: 'pypi', name: pep503(parts.name), version: parts.version, resolved };
}

/** Counts what an SBOM reader leaves out, for one summary note. */
export class SkipTally {
  private readonly types = new Map<string, number>();
  private withoutPurl = 0;

  otherType(type: string): void {
    this.types.set(type, (this.types.get(type) ?? 0) + 1);
  }

  noPurl(): void {
    this.withoutPurl += 1;
  }

  notes(file: string): string[] {
    const notes: string[] = [];
    const others = [...this.types.values()].reduce((a, b) => a + b, 0);
    if (others > 0) {
      const list = [...this.types].sort(([a], [b]) => (a < b ? -1 : 1)).map(([type, count]) => `${type}: ${count}`).join(', ');
      notes.push(`${file}: skipped ${others} package(s) that are neither npm nor PyPI (${list})`);
    }
    if (this.withoutPurl > 0) notes.push(`${file}: skipped ${this.withoutPurl} package(s) without a package URL`);
    return notes;
  }
}
