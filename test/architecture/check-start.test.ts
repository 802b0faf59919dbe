/**
 * What `nerq check` of an npm package loads before it scores (a warm run answers from the store):
 * the modules its entry, the check command and the npm collector reach through static imports.
 * None of them loads a parser only an audit or a fresh read of a repository uses — YAML (`yaml`),
 * TOML (`smol-toml`), globs (`picomatch`): their readers load them when they first parse
 * (audit/yarnrc.ts and python-indexes.ts through app/runtime.ts's loadAuditConfigParsers;
 * sources/github/link.ts, repo-files.ts and workflow-files.ts by dynamic imports). Nor does it load
 * the HTTP client's transport: undici and node:tls load when sources/http/client.ts sends its first
 * request (a warm run sends none); nor the CVSS calculator (`ae-cvss-calculator`): the OSV readers
 * load it before they score the advisory records they read (sources/osv/cvss.ts).
 */
import { describe, expect, it } from 'vitest';
import { readTree, resolveIn } from './layers.js';

const tree = readTree(new URL('../../src/', import.meta.url));

/** Runtime static imports only: `import x from`, `export … from`, a bare `import 'x'` (type-only ones are erased; `import()` loads later). */
function staticImports(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(/\b(import|export)\s+(type\s+)?[^'";]*?\bfrom\s*['"]([^'"]+)['"]/g)) if (m[2] === undefined) found.push(m[3]!);
  for (const m of source.matchAll(/\bimport\s*['"]([^'"]+)['"]/g)) found.push(m[1]!);
  return found;
}

/** The packages the static imports from `starts` reach, each with the chain that reaches it. */
function packagesReached(starts: readonly string[]): Map<string, string> {
  const packages = new Map<string, string>();
  const via = new Map<string, string>(starts.map((s) => [s, '']));
  const queue = [...starts];
  while (queue.length > 0) {
    const path = queue.shift()!;
    const chain = (): string => {
      const names = [path];
      for (let at = via.get(path)!; at !== ''; at = via.get(at)!) names.unshift(at);
      return names.join(' -> ');
    };
    for (const spec of staticImports(tree.get(path) ?? '')) {
      const target = resolveIn(tree, path, spec);
      if (target === null) {
        if (!spec.startsWith('.') && !packages.has(spec)) packages.set(spec, chain());
      } else if (!via.has(target)) {
        via.set(target, path);
        queue.push(target);
      }
    }
  }
  return packages;
}

describe("a check's start", () => {
  const reached = packagesReached(['cli/bin.ts', 'cli/run-check.ts', 'ecosystems/npm/collect.ts']);

  it('follows the chains (the walk reaches what every check loads)', () => {
    expect(reached.has('zod')).toBe(true);
  });

  it('loads no YAML, TOML or glob parser', () => {
    const parsers = ['yaml', 'smol-toml', 'picomatch'].filter((name) => reached.has(name)).map((name) => `${name}: ${reached.get(name)}`);
    expect(parsers).toEqual([]);
  });

  it('loads no HTTP transport (undici, node:tls)', () => {
    const transport = ['undici', 'node:tls', 'tls'].filter((name) => reached.has(name)).map((name) => `${name}: ${reached.get(name)}`);
    expect(transport).toEqual([]);
  });

  it('loads no CVSS calculator', () => {
    expect(reached.get('ae-cvss-calculator')).toBeUndefined();
  });
});
