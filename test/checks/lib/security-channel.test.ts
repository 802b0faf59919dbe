import { describe, expect, it } from 'vitest';
import { onlyPrivateReporting, policyChannels } from '../../../src/checks/lib/security-channel.js';

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

  it('keeps the first working address or link beside private reporting as its fallback, and says when private reporting is all there is', () => {
    expect(policyChannels('Use private vulnerability reporting, or mail sec@acme.io')).toMatchObject({ channel: { kind: 'private-reporting' }, fallback: { kind: 'email', value: 'sec@acme.io' } });
    expect(onlyPrivateReporting(policyChannels('Use private vulnerability reporting, or mail sec@acme.io'))).toBe(false);
    expect(onlyPrivateReporting(policyChannels('Report it at https://github.com/a/b/security/advisories/new.'))).toBe(true);
    // The advisory form and GitHub's guide are private reporting, never a web page of their own.
    expect(policyChannels('Report it at https://github.com/a/b/security/advisories/new.').fallback).toBeNull();
    expect(onlyPrivateReporting(policyChannels('Mail sec@acme.io'))).toBe(false);
  });

  it('reads GitHub\'s "Report a vulnerability" button and a report through its security advisories as private reporting, however the sentence runs', () => {
    for (const text of [
      'Please use the "Report a vulnerability" button under the Security tab.',
      'Go to the Security tab of this repository and click "Report a vulnerability".',
      'Use the **Report a vulnerability** button to reach the maintainers.',
      'Please report security issues privately via GitHub Security Advisories.',
      "Report it through GitHub's security advisories for this repository.",
    ]) {
      expect(policyChannels(text).channel?.kind, text).toBe('private-reporting');
      expect(onlyPrivateReporting(policyChannels(text)), text).toBe(true);
    }
    // Named but off: still no channel.
    expect(policyChannels('The "Report a vulnerability" button is not enabled here.').channel).toBeNull();
    // A list of published advisories, or a tab without the button, is no reporting channel.
    expect(policyChannels('Past issues are listed in GitHub Security Advisories.').channel).toBeNull();
    expect(policyChannels('See the security tab for advisories.').channel).toBeNull();
  });

  it('reads no channel in a sentence that says private reporting is off, only in one that names it', () => {
    for (const text of [
      'GitHub private vulnerability reporting is not enabled on this repository yet.',
      "GitHub's private vulnerability reporting is not enabled on this repository, so its advisory form is not a route here.",
      'Private vulnerability reporting is currently disabled.',
      "We haven't enabled private vulnerability reporting.",
      'We have not yet enabled private\nvulnerability reporting for this project.',
      'Once private vulnerability reporting is live, prefer it.',
      'A maintainer must enable private vulnerability reporting before review.',
    ]) {
      expect(policyChannels(text).channel, text).toBeNull();
    }
    // Said to be off in one sentence, named as the way in another: private reporting (GitHub is then asked).
    const both = 'Use private vulnerability reporting to report. If private vulnerability reporting is not enabled, ask in an issue.';
    expect(policyChannels(both).channel?.kind).toBe('private-reporting');
    // "do not" about something else in the same sentence is no negation of private reporting.
    expect(policyChannels('Please do not open public issues; use private vulnerability reporting instead.').channel?.kind).toBe('private-reporting');
    // Off, but an address beside it: the address.
    expect(policyChannels('Private vulnerability reporting is disabled. Mail sec@acme.io.').channel).toEqual({ kind: 'email', value: 'sec@acme.io' });
  });

  it('stays linear on hostile text', () => {
    expect(policyChannels('a'.repeat(100_000) + '@' + 'b.'.repeat(50_000)).channel).not.toBeUndefined();
    expect(policyChannels('http://'.repeat(20_000))).toHaveProperty('placeholders');
    expect(policyChannels('a'.repeat(100_000) + ' [at] ' + 'b [dot] '.repeat(20_000)).channel?.kind).toBe('email');
  });
});
