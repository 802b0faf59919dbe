import { describe, expect, it } from 'vitest';
import { targetLabel } from '../../src/render/labels.js';
import type { Report } from '../../src/report/schema.js';

const target = (ecosystem: Report['target']['ecosystem'], name: string, version: string | null): Report['target'] => ({
  input: name,
  ecosystem,
  name,
  version,
  purl: null,
  repository: null,
});

describe('targetLabel', () => {
  it.each([
    ['npm', 'express', '4.17.1', 'express@4.17.1'],
    ['pypi', 'flask', '3.1.3', 'flask==3.1.3'],
    // An unresolved requirement keeps its specifier as written, never flask==>=2.
    ['pypi', 'flask', '>=2', 'flask>=2'],
    ['pypi', 'flask', '~=2.3', 'flask~=2.3'],
    ['npm', 'express', null, 'express'],
  ] as const)('%s %s %s → %s', (ecosystem, name, version, label) => {
    expect(targetLabel(target(ecosystem, name, version))).toBe(label);
  });
});
