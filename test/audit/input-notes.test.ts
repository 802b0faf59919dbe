/**
 * An input's notes as audit warnings (`input-note`, src/app/audit.ts): a reader's note already names
 * its file, so the warning names it once. The SBOM is pip's vendored-packages SBOM recorded under
 * fixtures/lockfiles/real (fixtures/PROVENANCE.md), whose described component (the project) is
 * listed among its components too, without a package URL.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prepareAudit } from '../../src/app/audit.js';
import { REPO_ROOT } from '../support/run-cli.js';

const SBOM = path.join(REPO_ROOT, 'fixtures', 'lockfiles', 'real', 'pypa__pipenv-vendored-sbom', 'bom.cdx.json');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'nerq-input-notes-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const notes = async (files: string[]) =>
  (await prepareAudit({ dir, files })).warnings.filter((w) => w.code === 'input-note').map((w) => w.message);

describe('input notes name their file once', () => {
  it("pip's vendored SBOM in a sub-folder: a component without a package URL is noted under the file's path, once", async () => {
    const bom = JSON.parse(readFileSync(SBOM, 'utf8')) as { components: Array<Record<string, unknown>> };
    bom.components.push({ 'bom-ref': 'vendored-shim', name: 'shim', type: 'library' });
    mkdirSync(path.join(dir, 'vendor'));
    writeFileSync(path.join(dir, 'vendor', 'bom.cdx.json'), JSON.stringify(bom));
    const messages = await notes(['vendor/bom.cdx.json']);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/^vendor\/bom\.cdx\.json: skipped 1 /);
    expect(messages[0]).not.toMatch(/bom\.cdx\.json: vendor\/bom\.cdx\.json/);
  });

  it("pip's vendored SBOM as recorded: the described component, listed among the components without a package URL, is the project, not a skipped package", async () => {
    copyFileSync(SBOM, path.join(dir, 'bom.cdx.json'));
    const plan = await prepareAudit({ dir, files: ['bom.cdx.json'] });
    expect(plan.subjects.map((s) => `${s.name}@${s.version}`).sort()).toEqual(['idna@3.18', 'requests@2.34.2']);
    expect(plan.warnings.filter((w) => w.code === 'input-note')).toEqual([]);
  });

  it('a requirements.txt editable line: the note starts with the file and line, not the file twice', async () => {
    writeFileSync(path.join(dir, 'requirements.txt'), 'idna==3.18\n-e .\n');
    expect(await notes(['requirements.txt'])).toEqual([expect.stringMatching(/^requirements\.txt:2: skipped: /)]);
  });
});
