/**
 * The store session after it is closed: a front door (`nerq serve`, `nerq mcp`) closes the store
 * at shutdown while an evaluation no caller waits for any more may still end (its requests were
 * aborted by the pool's close). What it learnt under that abort is not recorded, and nothing is
 * said about it: the store was closed on purpose, not found broken.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreSession } from '../../src/app/store-session.js';
import { CHECKS } from '../../src/checks/index.js';
import { DEFAULT_GATE } from '../../src/scoring/gate.js';
import { buildReport } from '../../src/report/build.js';
import { evidence } from '../support/evidence-builder.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function session(warnings: string[]): StoreSession {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nerq-session-'));
  dirs.push(dir);
  return new StoreSession({ offline: false, cache: true, history: true }, { XDG_CACHE_HOME: dir, HOME: dir }, (m) => warnings.push(m));
}

describe('StoreSession', () => {
  it('records an evaluation while open; once closed, an evaluation that ends later is neither recorded nor warned about', () => {
    const warnings: string[] = [];
    const open = session(warnings);
    expect(open.store).not.toBeNull();
    const facts = evidence();
    const report = buildReport(facts, { checks: CHECKS, gate: DEFAULT_GATE });
    open.remember(report, facts);
    expect(open.store?.history.list(`npm:${report.target.name}`, 10)).toHaveLength(1);
    open.close();
    const later = evidence({ registry: { version: '9.9.9' } });
    const laterReport = buildReport(later, { checks: CHECKS, gate: DEFAULT_GATE });
    expect(open.remember(laterReport, later)).toBe(laterReport);
    expect(warnings).toEqual([]);
  });
});
