/**
 * Poetry's version constraints (`^1.2`, `~1.2.3`, `>=1.2 <2.0`, `1.2.*`) as PEP 440
 * specifiers, so that what pyproject.toml declares reads the same whatever tool wrote it.
 * Caret and tilde follow Poetry's documented meaning. `||` (either of two ranges) has no
 * PEP 440 equivalent: null.
 */
import { validRange } from '@renovatebot/pep440';

export function poetryToPep440(constraint: string): string | null {
  const trimmed = constraint.trim();
  if (trimmed === '' || trimmed === '*') return '';
  if (trimmed.includes('||') || trimmed.includes('|')) return null;
  const clauses = trimmed.split(/(?<!\s)\s*,\s*|(?<!\s)\s+(?=[<>=!~^])/).filter((c) => c !== '');
  const converted: string[] = [];
  for (const clause of clauses) {
    const out = convertClause(clause);
    if (out === null) return null;
    converted.push(out);
  }
  const spec = converted.join(',');
  return validRange(spec) ? spec : null;
}

function convertClause(clause: string): string | null {
  let match: RegExpExecArray | null;
  if ((match = /^\^\s*(.+)$/.exec(clause)) !== null) return bounded(match[1] ?? '', caretUpper);
  if ((match = /^~=\s*(.+)$/.exec(clause)) !== null) return `~=${match[1]}`;
  if ((match = /^~\s*(.+)$/.exec(clause)) !== null) return bounded(match[1] ?? '', tildeUpper);
  if ((match = /^(===|==|!=|>=|<=|>|<)\s*(.+)$/.exec(clause)) !== null) return `${match[1]}${match[2]}`;
  if ((match = /^=\s*(.+)$/.exec(clause)) !== null) return `==${match[1]}`;
  if (/^\d/.test(clause)) return `==${clause}`;
  return null;
}

function bounded(version: string, upper: (release: number[]) => number[]): string | null {
  const release = /^v?(\d+(?:\.\d+)*)/.exec(version.trim())?.[1];
  if (release === undefined) return null;
  return `>=${version.trim()},<${upper(release.split('.').map(Number)).join('.')}`;
}

/** `^1.2.3` → 2.0.0, `^0.2.3` → 0.3.0, `^0.0.3` → 0.0.4, `^0.0` → 0.1, `^0` → 1. */
function caretUpper(release: number[]): number[] {
  let index = release.findIndex((part) => part !== 0);
  if (index < 0) index = release.length - 1;
  return release.map((part, i) => (i < index ? part : i === index ? part + 1 : 0));
}

/** `~1.2.3` → 1.3.0, `~1.2` → 1.3, `~1` → 2. */
function tildeUpper(release: number[]): number[] {
  const index = release.length >= 2 ? 1 : 0;
  return release.map((part, i) => (i < index ? part : i === index ? part + 1 : 0));
}
