/**
 * project-status: what the project says about itself — the PEP 792 status PyPI publishes
 * (active, archived, deprecated, quarantined) and the `Development Status` trove classifier.
 *
 * Decisions:
 *  - quarantined is the strongest signal: PyPI's admins quarantine a project reported as
 *    malware and block its installation pending review, so it scores 0, caps at 9.9 and sets
 *    the verdict to "do not use", like a known-malicious record;
 *  - archived, deprecated and `7 - Inactive` tell users not to expect fixes: 0 / 20, and the
 *    overall score is capped at 49.9 as for a deprecated npm version (docs/scoring.md §5);
 *  - otherwise the development stage scores maturity: Planning 40, Pre-Alpha 50, Alpha 70,
 *    Beta 90, Production/Stable and Mature 100;
 *  - an active project without a Development Status classifier scores 100: leaving the
 *    classifier out is common and no risk by itself; with no status from PyPI either, unknown.
 */
import type { CapRequest, EvidenceValue } from './define.js';
import { defineCheck } from './define.js';
import { declaredDeprecation } from './lib/readme-opening.js';
import { truncate } from './lib/text.js';

const MAX_REASON_CHARS = 200;
export const INACTIVE_LIMIT = 49.9;
export const QUARANTINE_LIMIT = 9.9;

/** `Development Status :: N - …` stages by their number, and the score each gets. */
export const STAGE_SCORES: Readonly<Record<string, number>> = {
  '1': 40,
  '2': 50,
  '3': 70,
  '4': 90,
  '5': 100,
  '6': 100,
};
const INACTIVE_STAGE = '7';
const INACTIVE_SCORE = 20;
/** A long description whose opening declares the project deprecated or unmaintained (lib/readme-opening.ts). */
export const README_DECLARED_SCORE = 20;

/** The PEP 792 statuses PyPI publishes; any other value is read as no status. */
const KNOWN_STATUSES = ['active', 'archived', 'deprecated', 'quarantined'] as const;
type ProjectStatus = (typeof KNOWN_STATUSES)[number];

function knownStatus(status: string | undefined): ProjectStatus | null {
  return (KNOWN_STATUSES as readonly string[]).includes(status ?? '') ? (status as ProjectStatus) : null;
}

export default defineCheck({
  id: 'project-status',
  dimension: 'maintenance',
  weight: 2,
  needs: ['pypi'],
  optional: ['documents'],
  title: 'Project status',
  description:
    'Reads the project status PyPI publishes (PEP 792) and the `Development Status` classifier: quarantined (PyPI blocked it over a malware report) scores 0, ' +
    `caps the overall score at ${QUARANTINE_LIMIT} and sets the verdict to "do not use"; archived or deprecated score 0 and \`7 - Inactive\` ${INACTIVE_SCORE}, each capping the overall score at ${INACTIVE_LIMIT}. ` +
    'Otherwise the stage scores Planning 40, Pre-Alpha 50, Alpha 70, Beta 90, Production/Stable or Mature 100, and an active project without the classifier 100 (it is optional). ' +
    `A long description whose title, the subtitle under it or its first paragraph declares the project deprecated, unmaintained or replaced scores ${README_DECLARED_SCORE} and holds the verdict at CAUTION; unknown when PyPI gives no status and there is no classifier.`,
  messages: {
    quarantined: 'Quarantined by PyPI: reported as malicious, installs are blocked pending review ({statusNote})',
    archived: 'Archived on PyPI: no further updates expected ({statusNote})',
    deprecated: 'Deprecated on PyPI ({statusNote})',
    inactive: 'Development Status: 7 - Inactive (the project says it is no longer developed)',
    stage: 'Development Status: {developmentStatus}',
    active: 'Active on PyPI; no Development Status classifier',
    unknown: 'Project status unknown: PyPI gave no status and there is no Development Status classifier',
    'readme-declared': 'The project description declares it ({where}): "{excerpt}"',
  },
  evaluate: ({ pypi, documents }) => {
    const status = knownStatus(pypi.status?.status);
    const given = pypi.status?.reason?.trim() ?? '';
    const reason = given === '' ? null : truncate(given, MAX_REASON_CHARS);
    const developmentStatus = pypi.developmentStatus === null ? null : truncate(pypi.developmentStatus, 80);
    const stage = developmentStatus === null ? null : (/^\s*(\d)/.exec(developmentStatus)?.[1] ?? null);
    const data: Record<string, EvidenceValue> = {
      status: pypi.status === null ? null : truncate(pypi.status.status, 40),
      reason,
      developmentStatus,
      statusNote: reason ?? 'no reason given',
    };
    const capBecause = (id: string, limit: number, why: string, doNotUse = false): CapRequest[] => [
      { id, limit, reason: reason === null ? why : `${why}: ${reason}`, args: { statusReason: reason }, ...(doNotUse ? { doNotUse } : {}) },
    ];

    if (status === 'quarantined') {
      const caps = capBecause('quarantined', QUARANTINE_LIMIT, 'PyPI quarantined the project (reported as malicious)', true);
      return { score: 0, messageId: 'quarantined', data, caps };
    }
    if (status === 'deprecated') {
      return { score: 0, messageId: 'deprecated', data, caps: capBecause('project-deprecated', INACTIVE_LIMIT, 'the project is deprecated on PyPI') };
    }
    if (status === 'archived') {
      return { score: 0, messageId: 'archived', data, caps: capBecause('project-archived', INACTIVE_LIMIT, 'the project is archived on PyPI') };
    }
    if (stage === INACTIVE_STAGE) {
      const caps: CapRequest[] = [{ id: 'inactive', limit: INACTIVE_LIMIT, reason: 'the project declares Development Status 7 - Inactive', args: {} }];
      return { score: INACTIVE_SCORE, messageId: 'inactive', data, caps };
    }
    const declared = documents?.readme ? declaredDeprecation(documents.readme.text, pypi.name) : null;
    if (declared !== null) {
      return {
        score: README_DECLARED_SCORE,
        messageId: 'readme-declared',
        data: { ...data, where: declared.where, excerpt: declared.excerpt },
        holdVerdict: `the project description's ${declared.where} declares the project deprecated or unmaintained ("${declared.excerpt}"); a description that no longer says so would lift this`,
      };
    }
    const stageScore = stage === null ? undefined : STAGE_SCORES[stage];
    if (stageScore !== undefined) return { score: stageScore, messageId: 'stage', data };
    if (status === 'active') return { score: 100, messageId: 'active', data };
    return { score: null, messageId: 'unknown', data };
  },
});
