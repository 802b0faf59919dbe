/**
 * What a reader must see first, in words a non-expert understands (README.md, "Sample
 * report"): the outcome the exit code will have, whether the score is provisional, and the
 * alerts — the findings that cap or hold the verdict (a malicious or capped package, an
 * advisory affecting this version and the version that fixes it, a guarding check that could
 * not run, a failing security check) — before the details. Also each unavailable source once,
 * with the checks it left unknown. Inputs are raw report strings (hostile): callers sanitise or
 * escape the results for their medium; `inline code` marks stay for the medium to render.
 */
import type { Reason } from '../model/reason.js';
import type { Report } from '../report/schema.js';
import { capitalised, checksBlindedBy, sourceName } from '../report/sources.js';
import { plainReason } from '../util/plain-reason.js';
import { reasonInWords } from './reason-words.js';

export type Outcome = 'PASS' | 'FAIL' | 'INCOMPLETE' | 'NOT EVALUATED';

/** The outcome the exit code follows: the gate's (0 PASS, 1 FAIL, 3 INCOMPLETE or NOT EVALUATED). */
export function outcomeOf(report: Report): Outcome {
  if (report.error !== null) return 'NOT EVALUATED';
  if (report.gate.passed === true) return 'PASS';
  if (report.gate.passed === false) return 'FAIL';
  return 'INCOMPLETE';
}

/**
 * A score the gate could not stand on (too little coverage, a guarding check not run) is
 * provisional — still when `--allow-incomplete` let the gate pass (that changes the exit code only).
 */
export function isProvisional(report: Report): boolean {
  if (report.provisional) return true;
  if (report.error !== null || report.score === null) return false;
  return report.gate.passed === null || report.gate.reasonDetails.some((r) => r.code === 'allowed-incomplete');
}

export interface Alert {
  /** danger: caps the score or makes it unsafe; warning: holds the verdict or leaves it unchecked. */
  level: 'danger' | 'warning';
  text: string;
  /** A second line: what to do (the version that fixes it), when there is something to do. */
  action?: string;
  /** The verdict reason the alert says, with its code: a medium writes its names its own way. */
  reason?: Reason;
  /** What the alert says, as a stable id: a do-not-use cap, a cap, an advisory, a guard not run, a held verdict, a failing finding or a ceiling. */
  kind: 'do-not-use' | 'cap' | 'advisory' | 'not-checked' | 'held' | 'finding' | 'ceiling';
  /** The check the alert is about, by id, when it is about one (a finding, a held verdict). */
  check?: string;
}

/** The guarding checks (guardsDanger) by id, and what they check in a user's words. */
const GUARDS: Readonly<Record<string, string>> = {
  'malicious-package': 'malicious code',
  'known-vulnerabilities': 'known vulnerabilities',
};

/**
 * Checks whose failure is a finding about what gets installed (a confusable name, install-time
 * code, a release unlike the ones before): an alert when they fail. Other failing checks (no
 * security policy, few maintainers) are weaknesses, listed with their dimension.
 */
const FINDINGS: ReadonlySet<string> = new Set(['typosquat', 'install-scripts', 'release-anomalies', 'publisher-continuity']);

/** What a reader can do about a finding whose message names none (the advisories' `fix:` line does it for them). */
const FINDING_ACTIONS: Readonly<Record<string, string>> = {
  'install-scripts': 'read what it runs before installing (--evidence lists the files), or skip it with npm install --ignore-scripts when the package works without it',
};

const SEVERITY_WORDS: Record<Report['advisories'][number]['severity'], string> = {
  critical: 'Critical',
  high: 'High-severity',
  moderate: 'Moderate',
  low: 'Low-severity',
  unknown: 'Unrated',
};

/** `capped at 49.9: x` as the verdict reasons say it, to tell reasons the caps already cover. */
const capReason = (cap: Report['caps'][number]) => (cap.dimension === null ? `capped at ${cap.limit}: ${cap.reason}` : `${cap.dimension} capped at ${cap.limit}: ${cap.reason}`);

function advisoryAlerts(report: Report): Alert[] {
  return report.advisories
    // An MCP entry's repository's advisories are listed, not scored: no alert (docs/scoring.md §8a).
    .filter((a) => a.affectsResolved && !a.malicious && a.repository !== true)
    .map((a) => {
      const own = a.package === report.target.name;
      const where = own ? '' : ` in the dependency ${a.package}${a.version === null ? '' : `@${a.version}`}`;
      const cvss = a.cvss === null ? '' : ` (CVSS ${a.cvss})`;
      const summary = a.summary === null ? '' : `: ${a.summary}`;
      const action = a.fixed === null ? 'no fixed version yet' : own ? `fix: upgrade to ${a.fixed}` : `fix: ${a.package} ${a.fixed}`;
      const serious = a.severity === 'critical' || a.severity === 'high' || a.severity === 'unknown';
      return { level: serious ? 'danger' : 'warning', kind: 'advisory', text: `${SEVERITY_WORDS[a.severity]} advisory ${a.id}${cvss}${where}${summary}`, action };
    });
}

/** The guarding checks that could not run, in one line per reason: "Not checked for malicious code or known vulnerabilities: …". */
function uncheckedAlerts(report: Report): Alert[] {
  const byReason = new Map<string, string[]>();
  for (const check of report.checks) {
    const words = GUARDS[check.id];
    if (words === undefined || check.status !== 'unknown') continue;
    const source = typeof check.evidence.source === 'string' ? check.evidence.source : null;
    const why = typeof check.evidence.reason === 'string' && source !== null ? `${sourceName(source)} unavailable (${plainReason(check.evidence.reason)})` : check.message.replace(/^Unknown: /, '');
    byReason.set(why, [...(byReason.get(why) ?? []), words]);
  }
  const incomplete = outcomeOf(report) === 'INCOMPLETE';
  return [...byReason].map(([why, words]) => ({
    level: 'warning',
    kind: 'not-checked',
    text: `Not checked for ${words.join(' or ')}: ${why}`,
    ...(incomplete ? { action: 'rerun when it answers; --allow-incomplete accepts unchecked packages' } : {}),
  }));
}

/**
 * Alerts, most serious first: the dangers (do not use, caps, serious advisories, failing
 * findings about what gets installed), then the warnings (dimension caps, other advisories, what
 * could not be checked, other holds), then ceilings — a bound carried from another evaluation is
 * no finding, and the reason a verdict is held must come before it.
 */
export function alertsOf(report: Report): Alert[] {
  if (report.error !== null) return [];
  const alerts: Alert[] = [];
  const ceilings: Alert[] = [];
  const covered = new Set<string>();
  const doNotUse = report.verdictCode === 'do-not-use';
  const advisories = advisoryAlerts(report);
  let advisoryCapSaid = false;
  for (const cap of report.caps) {
    covered.add(capReason(cap));
    covered.add(cap.reason);
    // An advisory cap is said with the advisory itself (below), with its fix, once: it caps the
    // overall score and the Security dimension, whose bar shows the second.
    if (cap.id === 'vulnerable-version' && advisories.length > 0) {
      if (!advisoryCapSaid) {
        const first = advisories.find((a) => a.level === 'danger') ?? advisories[0]!;
        first.text += `; it caps the score at ${cap.limit}`;
        advisoryCapSaid = true;
      }
      continue;
    }
    if (doNotUse && report.verdictReasons.includes(cap.reason)) {
      alerts.push({ level: 'danger', kind: 'do-not-use', text: `Do not use: ${cap.reason}` });
    } else if (cap.dimension === null) {
      // A ceiling (an MCP server's weakest package) bounds the score without being a finding (docs/scoring.md §5).
      if (cap.ceiling === true) ceilings.push({ level: 'warning', kind: 'ceiling', text: `Score capped at ${cap.limit}: ${cap.reason}` });
      else alerts.push({ level: 'danger', kind: 'cap', text: `Score capped at ${cap.limit}: ${cap.reason}` });
    } else {
      const title = report.dimensions.find((d) => d.id === cap.dimension)?.title ?? cap.dimension;
      alerts.push({ level: 'warning', kind: 'cap', text: `${title} capped at ${cap.limit}: ${cap.reason}` });
    }
  }
  // Advisories right after the do-not-use and cap lines (the order alerts are read in).
  alerts.push(...advisories);
  const unchecked = uncheckedAlerts(report);
  alerts.push(...unchecked);
  const guardTitles = report.checks.filter((c) => GUARDS[c.id] !== undefined).map((c) => `${c.title}: not checked`);
  report.verdictReasons.forEach((reason, i) => {
    if (covered.has(reason) || guardTitles.some((t) => reason.startsWith(t))) return;
    covered.add(reason);
    const coded = report.verdictReasonDetails[i];
    // An advisory holding the verdict is said by its advisory alert above, with the fix.
    if (coded?.text === reason && coded.code === 'verdict-held' && coded.args.check === 'known-vulnerabilities' && advisories.length > 0) return;
    // A held verdict is said by its finding alone: the check's title names what passing means
    // ("Not deprecated", "Not a typosquat") and, before the finding, reads as its opposite.
    const detail = coded?.text === reason && coded.code === 'verdict-held' && typeof coded.args.detail === 'string' ? coded.args.detail : null;
    if (detail !== null && detail !== '') {
      alerts.push({ level: 'warning', kind: 'held', ...(typeof coded?.args.check === 'string' ? { check: coded.args.check } : {}), text: capitalised(detail) });
      return;
    }
    // In words: a dimension by its title, as the bars name it.
    const words = coded?.text === reason ? reasonInWords(coded) : reason;
    alerts.push({ level: 'warning', kind: 'held', text: capitalised(words), ...(coded?.text === reason ? { reason: coded } : {}) });
  });
  // A failing finding about what gets installed is an alert even when it does not (yet) move the verdict.
  for (const check of report.checks) {
    if (!FINDINGS.has(check.id) || check.status !== 'fail') continue;
    // Said already (a held verdict's sentence names the package without the message's code spans).
    const said = check.message.replaceAll('`', '');
    if (alerts.some((a) => a.text.replaceAll('`', '').includes(said))) continue;
    // The message says the finding itself ("The name can be mistaken for …"); the title is the check's.
    const action = FINDING_ACTIONS[check.id];
    alerts.push({ level: 'danger', kind: 'finding', check: check.id, text: check.message, ...(action === undefined ? {} : { action }) });
  }
  // The findings that set, hold or cap the verdict (danger) come first, then the warnings, each
  // in the order above; a ceiling, no finding, stays after every warning.
  return [...alerts.filter((a) => a.level === 'danger'), ...alerts.filter((a) => a.level === 'warning'), ...ceilings];
}

export interface UnavailableSource {
  id: string;
  /** What a user calls it ("GitHub", "OSV vulnerability database"). */
  name: string;
  /** Why, without internal request names. */
  reason: string;
  /** The checks it left unknown, by title. */
  checks: string[];
}

/** Each unavailable source once, with the checks it left unknown. */
export function unavailableSources(report: Report): UnavailableSource[] {
  return report.sources
    .filter((s) => s.status === 'unavailable')
    .map((s) => ({ id: s.id, name: sourceName(s.id), reason: plainReason(s.reason ?? 'no reason given'), checks: checksBlindedBy(report, s.id) }));
}

/** Checks left unknown for one same reason that is not a missing source (a repository link not verified). */
export interface SharedUnknown {
  /** The reason in full, once ("repository link not verified (package.json at main names …)"). */
  reason: string;
  /** The reason short, for each check's one line ("repository link not verified"). */
  short: string;
  /** The checks it left unknown, by title. */
  checks: string[];
  ids: string[];
}

/** A reason several unknown checks share is said once, not under each of them. */
export function sharedUnknowns(report: Report): SharedUnknown[] {
  const byMessage = new Map<string, Report['checks']>();
  for (const check of report.checks) {
    if (check.status !== 'unknown' || blindingSource(check) !== null) continue;
    byMessage.set(check.message, [...(byMessage.get(check.message) ?? []), check]);
  }
  return [...byMessage]
    .filter(([, checks]) => checks.length > 1)
    .map(([message, checks]) => {
      const reason = message.replace(/^Unknown: /, '');
      return { reason, short: reason.replace(/ \([^()]*\)$/, ''), checks: checks.map((c) => c.title), ids: checks.map((c) => c.id) };
    });
}

/** The short name of the source that left a check unknown (for a one-line unknown check), or null. */
export function blindingSource(check: Report['checks'][number]): string | null {
  if (check.status !== 'unknown' || check.messageId !== 'source-unavailable') return null;
  return typeof check.evidence.source === 'string' ? sourceName(check.evidence.source) : null;
}
