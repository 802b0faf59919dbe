/** The container recipe runs `nerq serve` as an unprivileged user, from the bundle alone. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/run-cli.js';

const lines = readFileSync(path.join(REPO_ROOT, 'Dockerfile'), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '' && !line.trim().startsWith('#'));
const finalStage = lines.slice(lines.map((l) => l.startsWith('FROM ')).lastIndexOf(true));

describe('Dockerfile', () => {
  it('the final stage switches to a non-root user before it starts the server', () => {
    const users = finalStage.filter((l) => l.startsWith('USER '));
    expect(users.length).toBeGreaterThan(0);
    const user = users.at(-1)!.slice('USER '.length).trim();
    expect(['root', '0', '0:0']).not.toContain(user);
    const entry = finalStage.findIndex((l) => l.startsWith('ENTRYPOINT '));
    expect(finalStage.findIndex((l) => l.startsWith('USER '))).toBeLessThan(entry);
    expect(finalStage.find((l) => l.startsWith('CMD '))).toContain('"serve"');
    expect(finalStage).toContain('EXPOSE 8787');
    // Only the bundle and its shim travel: no node_modules, no sources in the image that runs.
    expect(finalStage.filter((l) => l.startsWith('COPY ')).join('\n')).not.toMatch(/node_modules|[ /]src\b/);
  });
});
