import { describe, expect, it } from 'vitest';
import { policyChannels } from '../../../src/checks/lib/security-channel.js';

describe('policyChannels', () => {
  it('prefers private reporting, then e-mail, then a URL', () => {
    expect(policyChannels('Use private vulnerability reporting, or mail sec@acme.io').channel?.kind).toBe('private-reporting');
    expect(policyChannels('See https://acme.io/security or mail sec@acme.io.').channel).toEqual({ kind: 'email', value: 'sec@acme.io' });
    expect(policyChannels('Report at https://hackerone.com/acme.').channel).toEqual({ kind: 'url', value: 'https://hackerone.com/acme' });
  });

  it('reads an address written against scrapers as the address, before any link (github/github-mcp-server SECURITY.md)', () => {
    const recorded = 'managed through our GitHub organizations, such as [GitHub](https://github.com/GitHub).\n\nInstead, please send an email to opensource-security[@]github.com.';
    expect(policyChannels(recorded).channel).toEqual({ kind: 'email', value: 'opensource-security@github.com' });
    expect(policyChannels('Write to security (at) acme (dot) io').channel).toEqual({ kind: 'email', value: 'security@acme.io' });
    expect(policyChannels('Write to security [at] acme [dot] io').channel).toEqual({ kind: 'email', value: 'security@acme.io' });
    expect(policyChannels('Write to me[@]example.org').placeholders).toEqual(['me@example.org']);
  });

  it('counts no placeholder and no public tracker as a channel', () => {
    const found = policyChannels('Mail your-email@yourdomain.com or security@example.org, or see http://localhost:8080 and https://github.com/a/b/issues/new');
    expect(found.channel).toBeNull();
    expect(found.placeholders).toEqual(['your-email@yourdomain.com', 'security@example.org', 'http://localhost:8080']);
  });

  it('stays linear on hostile text', () => {
    expect(policyChannels('a'.repeat(100_000) + '@' + 'b.'.repeat(50_000)).channel).not.toBeUndefined();
    expect(policyChannels('http://'.repeat(20_000))).toHaveProperty('placeholders');
    expect(policyChannels('a'.repeat(100_000) + ' [at] ' + 'b [dot] '.repeat(20_000)).channel?.kind).toBe('email');
  });
});
