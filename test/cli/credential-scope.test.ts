import { describe, expect, it } from 'vitest';
import { credentialScope } from '../../src/app/runtime.js';

const npm = (auth?: string) => ({ registry: 'https://registry.example/', authHeaderFor: (url: string) => (url.startsWith('https://registry.example/') ? auth : undefined) });

describe('credentialScope: the facts cache is separated by the credentials a run sends', () => {
  it('is empty without credentials, so anonymous runs share their facts', () => {
    expect(credentialScope(null, npm())).toBe('');
  });

  it('differs per GitHub token and per npm credential, and never contains either', () => {
    const scopes = [credentialScope('ghp_first', npm()), credentialScope('ghp_second', npm()), credentialScope(null, npm('Bearer npm_x')), credentialScope('ghp_first', npm('Bearer npm_x'))];
    expect(new Set(scopes).size).toBe(4);
    for (const scope of scopes) {
      expect(scope).toMatch(/^[0-9a-f]{16}$/);
      expect(scope).not.toContain('ghp');
      expect(scope).not.toContain('npm_x');
    }
    expect(credentialScope('ghp_first', npm())).toBe(scopes[0]);
  });
});
