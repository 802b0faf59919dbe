/** The server a PyPI package claims in its README (`mcp-name:`), as read from the README nerq kept. */
import { describe, expect, it } from 'vitest';
import { claimOf } from '../../../src/ecosystems/mcp/claims.js';
import type { Evidence } from '../../../src/evidence/schema.js';

/** Only what claimOf reads of a PyPI package's evidence: its description (the README PyPI serves). */
function pypiEvidence(text: string, truncated: boolean): Evidence {
  const description = { text, contentType: 'text/markdown', length: truncated ? text.length * 2 : text.length, truncated };
  return { sources: { pypi: { status: 'ok', facts: { description } } } } as unknown as Evidence;
}

describe('claimOf (PyPI)', () => {
  const server = 'io.github.acme/tool';

  it('a README read whole that names no server names none; one cut short before any mcp-name line is unknown, not "names none"', () => {
    expect(claimOf(pypiEvidence('# tool\nno claim here\n', false), 'pypi', server)).toEqual({ known: true, name: null, where: 'README mcp-name' });
    expect(claimOf(pypiEvidence('# tool\nno claim in the part kept\n', true), 'pypi', server)).toEqual({ known: false, name: null, where: 'README mcp-name' });
  });

  it('a README cut short still claims what its kept part names: this server, or another one', () => {
    expect(claimOf(pypiEvidence(`# tool\n<!-- mcp-name: ${server} -->\n`, true), 'pypi', server)?.name).toBe(server);
    expect(claimOf(pypiEvidence('# tool\nmcp-name: io.github.other/tool\n', true), 'pypi', server)).toEqual({ known: true, name: 'io.github.other/tool', where: 'README mcp-name' });
  });
});

/** Only what claimOf reads of an npm package's evidence: the resolved version's mcpName and the other versions'. */
function npmEvidence(mcpName: string | null, otherMcpNames: { version: string; name: string }[]): Evidence {
  return { sources: { registry: { status: 'ok', facts: { version: '0.0.30', mcpName, otherMcpNames } } } } as unknown as Evidence;
}

describe('claimOf (npm, a version that names no server)', () => {
  const server = 'io.github.acme/tool';

  it('reads what other versions name: this server, another namespace (a look-alike), the same namespace (a rename: unclaimed)', () => {
    expect(claimOf(npmEvidence(null, [{ version: '0.1.0', name: 'io.github.other/x' }, { version: '0.0.40', name: server }]), 'npm', server)?.name).toBe(server);
    expect(claimOf(npmEvidence(null, [{ version: '0.1.0', name: 'io.github.other/tool' }]), 'npm', server)?.name).toBe('io.github.other/tool');
    expect(claimOf(npmEvidence(null, [{ version: '0.1.0', name: 'io.github.ACME/tool-mcp' }]), 'npm', server)).toMatchObject({ known: true, name: null });
    expect(claimOf(npmEvidence(null, []), 'npm', server)).toEqual({ known: true, name: null, where: 'package.json mcpName' });
  });
});
