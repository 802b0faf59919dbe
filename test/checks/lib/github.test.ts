import { describe, expect, it } from 'vitest';
import {
  absenceReason,
  absentUnknown,
  durationLabel,
  methodLabel,
  percent,
  readGithub,
  readPresentGithub,
  unverifiedLink,
} from '../../../src/checks/lib/github.js';
import { githubFacts } from '../../support/evidence-builder.js';
import { absentGithub, STARJACK_REASON, starjacked } from '../github-cases.js';

describe('readGithub', () => {
  it('gives the repository and the requested sections when everything is known', () => {
    const facts = githubFacts();
    const read = readGithub(facts, ['activity', 'ci']);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.repository.fullName).toBe('example/example');
    expect(read.sections.activity.commits90d).toBe(42);
    expect(read.sections.ci.workflows).toBe(3);
    expect(read.data).toEqual({ repository: 'example/example', verifiedBy: 'manifest' });
  });

  it('checks absence first, then the link, then the repository, then the sections', () => {
    const missing = { ...absentGithub('missing'), activity: null };
    expect(readGithub(missing, ['activity'])).toMatchObject({ ok: false, outcome: { messageId: 'repository-missing' } });
    const unverified = starjacked({ repository: null, activity: null });
    expect(readGithub(unverified, ['activity'])).toMatchObject({ ok: false, outcome: { messageId: 'link-unverified' } });
    const noRepository = githubFacts({ repository: null, activity: null });
    expect(readGithub(noRepository, ['activity'])).toMatchObject({
      ok: false,
      outcome: { messageId: 'section-unknown', data: { section: 'repository' } },
    });
    const noActivity = githubFacts({ activity: null, ci: null, unknown: { activity: '202: statistics being computed', ci: 'HTTP 502' } });
    expect(readGithub(noActivity, ['ci', 'activity'])).toMatchObject({
      ok: false,
      outcome: { score: null, messageId: 'section-unknown', data: { section: 'ci', reason: 'HTTP 502' } },
    });
  });

  it('names a missing reason when the source gave none', () => {
    const facts = githubFacts({ activity: null, unknown: {} });
    expect(readGithub(facts, ['activity'])).toMatchObject({ ok: false, outcome: { data: { reason: 'no reason given' } } });
  });

  it('a verified link by target or provenance is credited like a manifest', () => {
    for (const verifiedBy of ['target', 'provenance'] as const) {
      const read = readPresentGithub(githubFacts({ link: { verifiedBy, reason: 'ok' } }));
      expect(read.ok && read.data.verifiedBy).toBe(verifiedBy);
    }
  });
});

describe('absence', () => {
  it('is null for a present repository', () => {
    expect(absentUnknown(githubFacts())).toBeNull();
  });

  it('uses the source reason, else the status it stands for', () => {
    expect(absenceReason(absentGithub('missing'))).toBe('GitHub answered 404: no such repository');
    expect(absenceReason(absentGithub('blocked'))).toBe('GitHub answered 451: access blocked for legal reasons');
    expect(absenceReason(absentGithub('blocked', 'Repository access blocked'))).toBe('Repository access blocked');
    expect(absenceReason(absentGithub('missing', '  '))).toBe('GitHub answered 404: no such repository');
  });
});

describe('unverifiedLink (for the verdict)', () => {
  it('names the repository and why its link is not verified', () => {
    expect(unverifiedLink(starjacked())).toEqual({ repository: 'example/example', detail: STARJACK_REASON });
  });

  it('is null for a verified link and for an absent repository', () => {
    expect(unverifiedLink(githubFacts())).toBeNull();
    expect(unverifiedLink(absentGithub('missing'))).toBeNull();
  });
});

describe('labels', () => {
  it.each([
    [1, '1 hour'],
    [0.25, '0.3 hours'],
    [20, '20 hours'],
    [47.9, '47.9 hours'],
    [48, '2 days'],
    [336, '14 days'],
    [100, '4.2 days'],
  ])('%d hours → %s', (hours, label) => {
    expect(durationLabel(hours)).toBe(label);
  });

  it('percent rounds and never divides by zero', () => {
    expect(percent(1, 3)).toBe(33);
    expect(percent(2, 3)).toBe(67);
    expect(percent(5, 0)).toBe(0);
    expect(percent(-1, 4)).toBe(0);
  });

  it('names the response method', () => {
    expect(methodLabel('first-response')).toBe('first comment or review by someone else');
    expect(methodLabel('comments-or-close')).toBe('a comment or a close');
  });
});

describe('reasons from the network are kept short', () => {
  it('cuts a long link reason and a long absence reason to 200 characters', () => {
    const long = `package.json at main names "${'x'.repeat(500)}"`;
    const read = readGithub(starjacked({ link: { verifiedBy: null, reason: long } }));
    const reason = read.ok ? '' : String(read.outcome.data?.reason);
    expect(Array.from(reason)).toHaveLength(200);
    expect(reason.endsWith('…')).toBe(true);
    expect(absenceReason(absentGithub('blocked', 'y'.repeat(300)))).toHaveLength(200);
  });

  it('names an empty link reason', () => {
    expect(readGithub(starjacked({ link: { verifiedBy: null, reason: ' ' } }))).toMatchObject({
      ok: false,
      outcome: { data: { reason: 'no reason given' } },
    });
  });
});
