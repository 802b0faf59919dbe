/** A small audit for the renderer tests: two failures, one unevaluated, one ignored, three passing. */
import { mergePolicy, parsePolicy } from '../../../src/audit/policy.js';
import type { AuditReport } from '../../../src/audit/types.js';
import { auditOf, deprecated, entryOf, entryWith, healthy, malicious, middling, notFound, pypiReport } from '../../audit/policy/reports.js';

export const POLICY = mergePolicy({
  ...parsePolicy({ failOn: 'caution', ignore: [{ package: 'so-so', reason: 'pinned by the build tool', expires: '2026-12-31' }] }, '.nerqrc.json'),
  source: '.nerqrc.json',
});

export function sampleAudit(extra: Partial<AuditReport> = {}): AuditReport {
  return auditOf(
    [
      entryOf(healthy('example', '2.1.0'), POLICY, { declaredIn: [{ file: 'package-lock.json', line: 40, workspace: null }] }),
      entryOf(deprecated('old-thing', '1.0.0'), POLICY, { declaredIn: [{ file: 'package-lock.json', line: 12, workspace: null }] }),
      entryOf(notFound('ghost-pkg', '1.0.0'), POLICY, { declaredIn: [{ file: 'package-lock.json', line: null, workspace: null }] }),
      entryOf(middling('so-so', '0.3.0'), POLICY, { declaredIn: [{ file: 'packages/app/package.json', line: 9, workspace: 'packages/app' }] }),
      entryOf(malicious('evil-pkg', '0.0.1'), POLICY, {
        dev: true,
        declaredIn: [
          { file: 'package.json', line: 8, workspace: null },
          { file: 'package-lock.json', line: 30, workspace: null },
        ],
      }),
      entryOf(healthy('chalk', '5.3.0'), POLICY, { declaredIn: [{ file: 'package-lock.json', line: 20, workspace: null }] }),
      entryOf(pypiReport('requests', '2.31.0'), POLICY, { declaredIn: [{ file: 'requirements.txt', line: 3, workspace: null }] }),
    ],
    {
      inputs: [
        { file: 'package-lock.json', format: 'package-lock@3' },
        { file: 'requirements.txt', format: 'requirements' },
      ],
      ...extra,
    },
  );
}

/** An audit whose every free-text field carries the hostile string (names, messages, reasons, files). */
export function hostileAudit(hostile: string): AuditReport {
  const report = deprecated('victim', '1.0.0');
  report.target.name = `evil${hostile}`;
  report.target.version = `1.0.0${hostile}`;
  report.verdictReasons = [hostile];
  const failing = entryWith(
    report,
    { status: 'fail', failures: [{ rule: `rule${hostile}`, message: hostile }], ignoredBy: null },
    // Brought in through a dependency whose name is hostile too: the path is printed in every format.
    { name: `evil${hostile}`, declaredIn: [{ file: `dir,a:b/${hostile}/package.json`, line: 4, workspace: null }], direct: false, via: ['webpack', `x${hostile}`] },
  );
  const ignored = entryWith(
    middling('quiet', '1.0.0'),
    { status: 'ignored', failures: [{ rule: 'verdict', message: hostile }], ignoredBy: { package: hostile, reason: hostile, expires: null } },
  );
  const passing = entryWith(healthy('fine', '1.0.0'), { status: 'pass', failures: [], ignoredBy: null }, { name: `fine${hostile}` });
  return auditOf([failing, ignored, passing], {
    inputs: [{ file: `lock${hostile}`, format: hostile }],
    policySource: `policy${hostile}`,
    warnings: [{ code: 'input-note', message: hostile, details: { file: hostile } }],
  });
}
