/**
 * Eight processes write history into one store at once. Each child runs the REAL store code:
 * Node strips the types itself, and a tiny resolve hook maps the `.js` import specifiers of
 * src/store/*.ts to their `.ts` files (Node does not do that on its own).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { tempDir } from './temp-dir.js';

const OPEN_STORE = fileURLToPath(new URL('../../src/store/open-store.ts', import.meta.url));
const CHILDREN = 8;
const ROWS = 50;

const CHILD = `
import { registerHooks } from 'node:module';
registerHooks({
  resolve(specifier, context, next) {
    try {
      return next(specifier, context);
    } catch (error) {
      if (specifier.startsWith('.') && specifier.endsWith('.js')) return next(specifier.slice(0, -3) + '.ts', context);
      throw error;
    }
  },
});
const [storeUrl, dir, child, rows] = process.argv.slice(2);
const { openStore } = await import(storeUrl);
const store = openStore({ dir, warn: (m) => { console.error('warn: ' + m); process.exitCode = 3; } });
if (!store) process.exit(2);
for (let i = 0; i < Number(rows); i++) {
  store.history.record({
    target: 'npm:race', ecosystem: 'npm', name: 'race', version: child + '.' + i,
    score: i, grade: 'A', verdict: 'YES', coverage: 1, dimensions: { d: i }, checks: { c: null },
    evidenceHash: 'h', evaluatedAt: new Date(Date.UTC(2024, 0, 1, 0, 0, 0, Number(child) * 1000 + i)).toISOString(),
    toolVersion: 't',
  });
}
store.close();
`;

function run(script: string, args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('store concurrency', () => {
  it(`${CHILDREN} processes each record ${ROWS} rows into a fresh store without losing one`, async () => {
    const dir = tempDir();
    const storeDir = path.join(dir, 'store');
    const script = path.join(dir, 'child.mjs');
    fs.writeFileSync(script, CHILD);

    const results = await Promise.all(
      Array.from({ length: CHILDREN }, (_, i) =>
        run(script, [pathToFileURL(OPEN_STORE).href, storeDir, String(i), String(ROWS)]),
      ),
    );
    for (const r of results) expect(r.code, r.stderr).toBe(0);

    const store = openStore({ dir: storeDir, warn: (m) => expect.fail(m) });
    const rows = store!.history.list('npm:race', 1000);
    expect(rows).toHaveLength(CHILDREN * ROWS);
    expect(new Set(rows.map((r) => r.version)).size).toBe(CHILDREN * ROWS);
    store!.close();
  });
});
