/**
 * Evidence → Report: runs the scoring engine, the category rules and the gate, and lays the
 * result out as the JSON contract. Pure; the same evidence and options give an equal report.
 */
import { isPackageEcosystem } from '../ecosystems/rules.js';
import type { AnyCheck } from '../checks/define.js';
import { DIMENSIONS } from '../checks/define.js';
import { ownForkCommits } from '../checks/lib/github.js';
import { judgeScript, type JudgedScript } from '../checks/lib/piped-scripts.js';
import type { Evidence, SourceId } from '../evidence/schema.js';
import { SOURCE_IDS, sourceOf } from '../evidence/schema.js';
import { decideCategory } from '../scoring/category.js';
import { evaluate } from '../scoring/evaluate.js';
import { applyGate, type GateOptions } from '../scoring/gate.js';
import { DIMENSION_TITLES, PROFILES, isCategory } from '../scoring/profiles.js';
import { errorVerdict } from '../scoring/verdict.js';
import { VERSION } from '../version.js';
import { aiActOf } from './ai-act.js';
import { REPORT_SCHEMA_VERSION, type Report } from './schema.js';
import { sourceName } from './sources.js';
import { plainReason } from '../util/plain-reason.js';

export interface BuildOptions {
  checks: readonly AnyCheck[];
  gate: GateOptions;
  /** Category from --category; falls back to the evidence's own override, then the rules. */
  category?: string | null;
}

export function buildReport(evidence: Evidence, options: BuildOptions): Report {
  const now = new Date(evidence.capturedAt);
  const override = options.category ?? evidence.categoryOverride;
  const category =
    override && isCategory(override)
      ? { id: override, reason: 'set with --category' }
      : decideCategory(evidence);
  const result = evaluate(evidence, options.checks, category.id, { now }, { minCoverage: options.gate.minCoverage });
  const gate = applyGate(
    { ...result, error: null, unchecked: uncheckedGuards(result.checks, options.checks), uninspected: uninspectedGuards(result.checks, options.checks) },
    options.gate,
  );
  // Every category that applies: the governing one may be stricter than the AI one (code-execution).
  const aiAct = aiActOf(evidence, category.matches?.map((m) => m.id) ?? [category.id]);
  const report: Report = {
    schemaVersion: REPORT_SCHEMA_VERSION,
    tool: { name: 'nerq', version: VERSION },
    evaluatedAt: now.toISOString(),
    target: { ...evidence.target, ...repositoryOrigin(evidence), ...entryFolder(evidence) },
    category,
    score: result.score,
    grade: result.grade,
    verdict: result.verdict.word,
    verdictCode: result.verdict.code,
    verdictReasons: result.verdict.reasons.map((r) => r.text),
    verdictReasonDetails: result.verdict.reasons,
    provisional: result.verdict.provisional,
    coverage: result.coverage,
    dimensions: result.dimensions,
    checks: result.checks,
    caps: result.caps,
    // Sources that do not exist for this target (PyPI for an npm package…) are left out.
    sources: SOURCE_IDS.flatMap((id: SourceId) => {
      const source = sourceOf(evidence.sources, id);
      if (source.status === 'not-applicable') return [];
      return [source.status === 'ok' ? { id, status: source.status, reason: null } : { id, status: source.status, reason: source.reason, code: source.code ?? 'unclassified' }];
    }),
    advisories: advisoriesOf(evidence),
    gate,
    previous: null,
    error: null,
  };
  const distribution = distributionOf(evidence);
  const github = evidence.sources.github;
  const included = evidence.target.ecosystem === 'github' && github.status === 'ok' ? github.facts.includedPackage : undefined;
  return {
    ...report,
    ...(aiAct === null ? {} : { aiAct }),
    ...(distribution === null ? {} : { distribution }),
    ...(included === undefined ? {} : { includedPackage: { ...included } }),
  };
}

/** An MCP entry's repository folder: the one its files were read in, else the one the registry named (refused or not listed). */
function entryFolder(evidence: Evidence): Pick<Report['target'], 'folder'> {
  const mcp = evidence.sources.mcp;
  if (evidence.target.ecosystem !== 'mcp' || mcp?.status !== 'ok' || mcp.facts.repositorySubfolder === null) return {};
  const github = evidence.sources.github;
  const read = github.status === 'ok' ? github.facts.files?.folder : undefined;
  return { folder: read ?? mcp.facts.repositorySubfolder };
}

/** A repository target's origin: the repository it was forked from, the name it was asked by before a rename. */
function repositoryOrigin(evidence: Evidence): Pick<Report['target'], 'fork' | 'renamedFrom'> {
  const github = evidence.sources.github;
  if (evidence.target.ecosystem !== 'github' || github.status !== 'ok' || github.facts.repository === null) return {};
  const { fork, parent, renamedFrom } = github.facts.repository;
  // Its own commits, when compared with the parent it names (checks/lib/github.ts).
  const own = ownForkCommits(github.facts, github.facts.repository);
  const ownOf = own === null ? {} : { own: { status: own.status, aheadBy: own.aheadBy, behindBy: own.behindBy, lastCommitAt: own.activity.lastCommitAt } };
  return {
    ...(fork ? { fork: { parent, check: parent === null ? null : `github:${parent}`, ...ownOf } } : {}),
    ...(renamedFrom === null ? {} : { renamedFrom }),
  };
}

/** The members of a judged script the report carries. */
const pick = ({ url, host, kind, reason }: JudgedScript) => ({ url, host, kind, reason });

/** A repository target's distribution as the report shows it: each package with the target that evaluates it when its link verifies. */
function distributionOf(evidence: Evidence): Report['distribution'] | null {
  const github = evidence.sources.github;
  if (evidence.target.ecosystem !== 'github' || github.status !== 'ok' || github.facts.distribution === undefined) return null;
  const { packages, images, skipped, scripts } = github.facts.distribution;
  // Judged as the advertised-packages check judges them, which reads them only beside the repository's facts.
  const repository = github.facts.repository;
  return {
    packages: packages.map((p) => ({
      ecosystem: p.ecosystem,
      name: p.name,
      status: p.status,
      command: p.command,
      declared: p.declared,
      linksTo: p.linksTo,
      reason: p.reason,
      ...(p.reasonCode === undefined ? {} : { reasonCode: p.reasonCode }),
      check: p.status === 'verified' ? `${p.ecosystem}:${p.name}` : null,
    })),
    images: images.map((i) => ({ ...i })),
    skipped: [...skipped],
    ...(scripts === undefined || scripts.length === 0 || repository === null
      ? {}
      : { scripts: scripts.map((line) => ({ ...pick(judgeScript(line, repository.fullName, repository.homepage)), command: line.command })) }),
  };
}

/**
 * The guarding checks (known vulnerabilities, malicious packages: `guardsDanger`) that could not
 * run, with the reason their source gave: the gate does not pass a target on what was not checked.
 */
export function uncheckedGuards(
  results: Report['checks'],
  checks: readonly AnyCheck[],
): { ids: string[]; title: string; reason: string }[] {
  const guarding = new Set(checks.filter((c) => c.guardsDanger === true).map((c) => c.id));
  // Checks blinded by one source share one line: "A and B not checked: OSV unavailable (…)".
  const byReason = new Map<string, Report['checks']>();
  for (const r of results) {
    // A guarding check that ran on what it could and lists the rest in `unchecked` (an MCP entry
    // whose package's OSV checks could not run: checks/mcp-packages.ts) is unchecked too.
    const partly = Array.isArray(r.evidence.unchecked) ? r.evidence.unchecked.filter((u): u is string => typeof u === 'string') : [];
    if (!guarding.has(r.id) || (r.status !== 'unknown' && partly.length === 0) || r.evidence.uninspected === true) continue;
    const reason =
      partly.length > 0
        ? partly.join('; ')
        : typeof r.evidence.reason === 'string'
          ? `${sourceName(String(r.evidence.source ?? 'source'))} unavailable (${plainReason(r.evidence.reason)})`
          : r.message;
    byReason.set(reason, [...(byReason.get(reason) ?? []), r]);
  }
  return [...byReason].map(([reason, blind]) => ({ ids: blind.map((r) => r.id), title: blind.map((r) => r.title).join(' and '), reason }));
}

/**
 * The guarding checks that are unknown because what they guard is code nerq cannot inspect at all
 * (`uninspected` in their evidence: an MCP server whose only packages are container images, NuGet
 * packages or bundles, a remote-only one — docs/mcp.md, "Code nerq cannot inspect"): no source
 * coming back will check it, so the target is incomplete and `--allow-incomplete` does not lift it.
 */
export function uninspectedGuards(results: Report['checks'], checks: readonly AnyCheck[]): { ids: string[]; title: string; reason: string }[] {
  const guarding = new Set(checks.filter((c) => c.guardsDanger === true).map((c) => c.id));
  return results
    .filter((r) => guarding.has(r.id) && r.status === 'unknown' && r.evidence.uninspected === true)
    .map((r) => ({ ids: [r.id], title: r.title, reason: r.message.replace(/^Unknown: /, '') }));
}

/**
 * The report's advisories: the target's first, then its direct dependencies'. Each names its
 * ecosystem; one in evidence saved before advisories said theirs is a package target's own
 * ecosystem's (its own and its direct dependencies' were asked in it), else unknown (null).
 */
function advisoriesOf(evidence: Evidence): Report['advisories'] {
  const own = advisoriesIn(evidence.sources.vulnerabilities, evidence);
  // An MCP entry's repository's, when a package of it is evaluated: listed, not counted (docs/scoring.md §8a).
  const repository = evidence.mcpRepositoryAdvisories === undefined ? [] : advisoriesIn(evidence.mcpRepositoryAdvisories, evidence).map((a) => ({ ...a, repository: true as const }));
  return [...own, ...repository];
}

function advisoriesIn(source: Evidence['sources']['vulnerabilities'], evidence: Evidence): Report['advisories'] {
  if (source.status !== 'ok') return [];
  const target = evidence.target.ecosystem;
  const fallback = isPackageEcosystem(target) ? target : null;
  return [...source.facts.advisories, ...(source.facts.dependencyAdvisories ?? [])].map((a) => ({
    id: a.id,
    aliases: a.aliases,
    summary: a.summary,
    severity: a.severity,
    cvss: a.cvss,
    package: a.package,
    ecosystem: a.ecosystem ?? fallback,
    version: a.version,
    affectsResolved: a.affectsResolved,
    fixed: a.fixed,
    published: a.published,
    url: a.url,
    malicious: a.malicious,
  }));
}

export interface ErrorReportInput {
  input: string;
  ecosystem: Report['target']['ecosystem'];
  name: string;
  version?: string | null;
  code: string;
  message: string;
  gate: GateOptions;
  evaluatedAt: string | null;
}

/** A report for a target that could not be evaluated (not found, not supported, failed fetch). */
export function errorReport(input: ErrorReportInput): Report {
  const error = { code: input.code, message: input.message };
  const verdict = errorVerdict(error);
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    tool: { name: 'nerq', version: VERSION },
    evaluatedAt: input.evaluatedAt,
    target: {
      input: input.input,
      ecosystem: input.ecosystem,
      name: input.name,
      version: input.version ?? null,
      purl: null,
      repository: null,
    },
    category: null,
    score: null,
    grade: null,
    verdict: verdict.word,
    verdictCode: verdict.code,
    verdictReasons: verdict.reasons.map((r) => r.text),
    verdictReasonDetails: verdict.reasons,
    provisional: false,
    coverage: 0,
    dimensions: DIMENSIONS.map((id) => ({
      id,
      title: DIMENSION_TITLES[id],
      score: null,
      weight: PROFILES.library[id],
      coverage: 0,
    })),
    checks: [],
    caps: [],
    sources: [],
    advisories: [],
    gate: applyGate({ score: null, coverage: 0, caps: [], dimensions: [], error }, input.gate),
    previous: null,
    error,
  };
}
