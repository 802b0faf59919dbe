/**
 * mcp-packages: an MCP Registry entry is as trustworthy as the weakest package it installs
 * from. Each npm / PyPI package is evaluated as its own target (its report is nested in the
 * entry's); the entry scores the lowest of their scores and its overall score is capped there,
 * so an entry cannot score above a package it runs, nor be rated above it (a package held at
 * CAUTION holds the entry). A do-not-use package makes the entry
 * do-not-use; a package its registry does not have caps the entry below NO. OCI, NuGet, MCPB (and other) packages are listed as not evaluated yet,
 * and so is one the entry installs from another registry (ecosystems/mcp/registry-base.ts).
 * What could not be found out now is unknown, never a finding: a package whose registry could
 * not answer leaves the check unknown under a bound that does not fail the gate by itself, and
 * one whose vulnerabilities or malicious-code checks could not run is listed in `unchecked`;
 * either way the entry is incomplete (exit 3), as the package is.
 */
import semver from 'semver';
import { valid as pep440Valid } from '@renovatebot/pep440';
import { defineCheck, type CheckOutcome } from './define.js';
import { UNINSPECTED_LIMIT } from './lib/mcp.js';

/** The cap of an entry naming a package (or version) its registry does not have. */
export const MISSING_LIMIT = 29.9;

/** A held package's verdict as the reports print it (the codes are the JSON's). */
const HELD_VERDICT_WORDS: Readonly<Record<string, string>> = { caution: 'CAUTION', no: 'NO — USE WITH CAUTION', unknown: 'UNKNOWN' };

/** Package errors that say what the registry has, not that it could not be asked. */
const FOUND_OUT = new Set(['not-found', 'version-not-found']);

export default defineCheck({
  id: 'mcp-packages',
  dimension: 'security',
  weight: 5,
  needs: ['mcp'],
  guardsDanger: true,
  title: 'Packages of the MCP server',
  description:
    `Every npm and PyPI package an MCP Registry entry names is evaluated as a target of its own (the report nests each one); the check scores the lowest package score and caps the entry's overall score at it (a ceiling: it does not fail the gate by itself), a package whose verdict is not YES (held at CAUTION when a guarding check could not run) holds the entry's verdict at CAUTION, a package whose verdict is NO — DO NOT USE makes the entry do-not-use, and a package (or version) its registry does not have scores 0 and caps the overall score at ${MISSING_LIMIT} (a missing package's name is free for anyone to publish; a missing version cannot be installed as the entry names it). A package whose version is no single release (\`^1.0.0\`, \`latest\`, \`1.x\`; the registry allows only exact versions), or that names no version (the runner takes the latest), holds the entry at CAUTION: what runs is whatever matches at start. OCI images, NuGet packages and MCP bundles are listed as not evaluated yet, and so is a package the entry installs from a registry nerq does not read (its registryBaseUrl, or runtime arguments or variables that point the runner elsewhere: never the public package's score), or whose runtime arguments or preset variables make the runner install or run other code (\`-p\`, \`--call\`, \`--from\`, \`--with\`, \`node -e\`, \`python -c\`, a shell as the runtime or one that runs another kind of package, an operand of their own, \`NODE_OPTIONS\`, \`PYTHONPATH\`) — beside an evaluated package such an npm or PyPI package still bounds the entry at ${UNINSPECTED_LIMIT} (\`mcp-uninspected\`, a ceiling) and holds it at CAUTION, since a client may run it instead; when a package could not be evaluated because its registry could not answer, the check is unknown and the entry incomplete (exit 3) as the package is, its overall score bounded by the weakest evaluated package or, when that is higher or there is none, by ${UNINSPECTED_LIMIT} (a ceiling, \`mcp-package-unavailable\`), and when an evaluated package's vulnerability or malicious-package checks could not run the entry is incomplete as the package is (\`unchecked\` lists them); when no package can be evaluated (OCI, NuGet, MCPB only), the entry is remote-only, or it names neither a package nor a remote, what it runs cannot be inspected: the check is unknown, so the entry is incomplete (exit 3, which \`--allow-incomplete\` does not lift: no source coming back will inspect it) and its verdict at most CAUTION, and its overall score is bounded at ${UNINSPECTED_LIMIT} (\`mcp-uninspected\`, a ceiling — set by mcp-remotes for a remote-only entry): never a pass, never a failure by itself.`,
  messages: {
    weakest: 'Weakest package {package} scores {score} (of {evaluated} evaluated; not evaluated: {notEvaluated})',
    'do-not-use': 'Package {package} is rated NO — DO NOT USE',
    missing: 'Package {package} is not in its registry: the name is free for anyone to publish under',
    'version-missing': 'Package {package} has no such version in its registry: the entry names a release that cannot be installed',
    'none-evaluated': 'Unknown: no package could be evaluated (not evaluated: {notEvaluated})',
    'nothing-to-run': 'Unknown: the entry names no package and no remote, so nothing it runs can be inspected',
    'remote-only': 'Unknown: the server runs only remotely, so its code cannot be inspected',
    unavailable: 'Unknown: package {package} could not be evaluated: {reason}',
    unchecked: 'Weakest package {package} scores {score} (of {evaluated} evaluated; not evaluated: {notEvaluated}); a package\'s vulnerability or malicious-code checks could not run',
  },
  evaluate: ({ mcp }): CheckOutcome => {
    if (mcp.packages.length === 0) {
      // What it runs cannot be inspected: unknown (this check guards, so the entry is incomplete,
      // never passed nor failed for it — docs/mcp.md, "Code nerq cannot inspect"). A remote-only
      // entry's bound is mcp-remotes'; one with neither names nothing to inspect.
      if (mcp.remotes.length > 0) return { score: null, messageId: 'remote-only', data: { uninspected: true } };
      return {
        score: null,
        messageId: 'nothing-to-run',
        data: { uninspected: true },
        caps: [
          { id: 'mcp-uninspected', limit: UNINSPECTED_LIMIT, ceiling: true, reason: 'the MCP server names no package and no remote: nothing it runs can be inspected', args: {} },
        ],
      };
    }
    const notEvaluated = mcp.packages
      .filter((p) => p.evaluation === null || p.evaluation.score === null)
      .map((p) => `${p.registryType}:${p.identifier}`);
    const notEvaluatedText = notEvaluated.length === 0 ? 'none' : notEvaluated.join(', ');
    const bad = mcp.packages.find((p) => p.evaluation?.doNotUse === true);
    if (bad !== undefined) {
      const label = bad.target ?? bad.identifier;
      return {
        score: 0,
        messageId: 'do-not-use',
        data: { package: label },
        caps: [{ id: 'mcp-package-do-not-use', limit: 0, doNotUse: true, reason: `package ${label} is rated NO — DO NOT USE`, args: { package: label } }],
      };
    }
    // A named package its registry does not have cannot be what the entry promises, and whoever
    // publishes that name next is what the client will run. A package its registry has without
    // the version named is held by its owners: the release the entry promises cannot be
    // installed (a name nobody holds is named first).
    const missing =
      mcp.packages.find((p) => p.evaluation?.error === 'not-found') ?? mcp.packages.find((p) => p.evaluation?.error === 'version-not-found');
    if (missing !== undefined) {
      const label = missing.target ?? missing.identifier;
      const error = missing.evaluation?.error ?? 'not-found';
      const versionOnly = error === 'version-not-found';
      const reason = versionOnly ? `package ${label} named by the entry has no such version in its registry` : `package ${label} named by the entry is not in its registry`;
      return {
        score: 0,
        messageId: versionOnly ? 'version-missing' : 'missing',
        data: { package: label, error },
        caps: [{ id: 'mcp-package-missing', limit: MISSING_LIMIT, reason, args: { package: label, error } }],
      };
    }
    const scored = mcp.packages.flatMap((p) => (p.evaluation?.score != null ? [{ label: p.target ?? p.identifier, score: p.evaluation.score }] : []));
    // A package that could not be evaluated now (its registry down) is unknown, not
    // uninspectable: the entry is incomplete until it answers, as the package is, and bounded
    // below YES meanwhile (or by its weakest evaluated package, if lower).
    const unavailable = mcp.packages.find((p) => p.evaluation !== null && p.evaluation.score === null && p.evaluation.error !== null && !FOUND_OUT.has(p.evaluation.error));
    if (unavailable !== undefined) {
      const weakest = scored.length === 0 ? null : scored.reduce((a, b) => (b.score < a.score ? b : a));
      const label = unavailable.target ?? unavailable.identifier;
      const caps =
        weakest !== null && weakest.score < UNINSPECTED_LIMIT
          ? [weakestCap(weakest)]
          : [
              {
                id: 'mcp-package-unavailable',
                limit: UNINSPECTED_LIMIT,
                ceiling: true,
                reason: `package ${label} of the MCP server could not be evaluated now: below YES until it can`,
                args: { package: label },
              },
            ];
      const error = unavailable.evaluation?.error ?? '';
      return { score: null, messageId: 'unavailable', data: { package: label, error, reason: UNAVAILABLE_WORDS[error] ?? UNAVAILABLE_OTHER }, caps };
    }
    if (scored.length === 0) {
      // Nothing it runs could be evaluated (an OCI image, a NuGet package…): the entry's own
      // checks passing says nothing of its code, so the score is bounded below YES and the entry
      // is incomplete (this check is unknown), whatever the gate's bar.
      return {
        score: null,
        messageId: 'none-evaluated',
        data: { notEvaluated: notEvaluatedText, uninspected: true },
        caps: [
          {
            id: 'mcp-uninspected',
            limit: UNINSPECTED_LIMIT,
            ceiling: true,
            reason: `no package of the MCP server could be evaluated (${notEvaluatedText})`,
            args: { notEvaluated: notEvaluatedText },
          },
        ],
      };
    }
    const weakest = scored.reduce((a, b) => (b.score < a.score ? b : a));
    // A package held below YES (its vulnerabilities could not be checked…) holds the entry: the
    // entry runs it, and its score alone does not say why it was held.
    const held = mcp.packages.find((p) => p.evaluation !== null && p.evaluation.score !== null && p.evaluation.verdictCode !== 'yes');
    // An npm or PyPI package nerq did not evaluate (installed from another registry, or with other
    // code its runtime arguments add) is a way to run the server a client may take instead of the
    // evaluated one: the entry is not passed on the other package's word.
    const unvouched = mcp.packages.find((p) => p.evaluation === null && EVALUATED_TYPES.has(p.registryType));
    const unvouchedLabel = unvouched === undefined ? '' : `${unvouched.registryType}:${unvouched.identifier}`;
    // A version that is no single release (`^1.0.0`, `latest`, `1.x`; the registry's schema allows
    // only exact ones), or none at all (the runner then takes the latest, as for `latest`): what
    // runs is whatever matches when the client starts, not what was scored.
    const unpinned = mcp.packages.find((p) => p.evaluation !== null && (p.version === null || !exactVersion(p.registryType, p.version)));
    const hold =
      held !== undefined
        ? { holdVerdict: `package ${held.target ?? held.identifier} is rated ${HELD_VERDICT_WORDS[held.evaluation?.verdictCode ?? 'unknown'] ?? 'UNKNOWN'}, not YES; the MCP server runs it, so the entry is held until that package is YES` }
        : unvouched !== undefined
          ? { holdVerdict: `package ${unvouchedLabel} was not evaluated (${unvouched.notEvaluated ?? 'not evaluated'}); a client may run it instead of ${weakest.label}; lifted once every npm or PyPI package of the entry is evaluated` }
          : unpinned !== undefined
            ? {
                holdVerdict: `package ${unpinned.identifier} is named ${unpinned.version === null ? 'without a version' : `with the version ${JSON.stringify(unpinned.version)}`}, not one release: the client runs whatever matches when it starts; lifted once the entry names an exact version`,
              }
            : {};
    const unvouchedCaps =
      unvouched === undefined
        ? []
        : [
            {
              id: 'mcp-uninspected',
              limit: UNINSPECTED_LIMIT,
              ceiling: true as const,
              reason: `package ${unvouchedLabel} of the MCP server was not evaluated: a client may run it instead of ${weakest.label}; lifted once every npm or PyPI package of the entry is evaluated`,
              args: { notEvaluated: unvouchedLabel },
            },
          ];
    // What an evaluated package's own guarding checks could not check (OSV down) the entry has
    // not checked either: listed in `unchecked`, which leaves the entry incomplete as the package
    // is (report/build.ts, uncheckedGuards), while its score still counts.
    const unchecked = mcp.packages.flatMap((p) =>
      p.evaluation?.score != null ? (p.evaluation.unchecked ?? []).map((line) => `${p.target ?? p.identifier}: ${line}`) : [],
    );
    return {
      ...hold,
      score: weakest.score,
      messageId: unchecked.length > 0 ? 'unchecked' : 'weakest',
      data: { package: weakest.label, score: weakest.score, evaluated: scored.length, notEvaluated: notEvaluatedText, unchecked, ...(unpinned === undefined ? {} : { unpinned: `${unpinned.registryType}:${unpinned.identifier}` }) },
      caps: [weakestCap(weakest), ...unvouchedCaps],
    };
  },
});

/** Whether a package version names one release (npm: a semver version; PyPI: a PEP 440 version), not a range or `latest`. */
function exactVersion(registryType: string, version: string): boolean {
  if (registryType === 'npm') return semver.valid(version) !== null;
  if (registryType === 'pypi') return pep440Valid(version) !== null;
  return true;
}

/** Why a package could not be evaluated, in words, by its error code (ecosystems/adapter.ts); the code stays in the data. */
const UNAVAILABLE_WORDS: Readonly<Record<string, string>> = {
  'registry-unavailable': 'its registry did not answer; rerun when it does',
  ambiguous: 'its name or version matches more than one release',
  'bad-option': 'it cannot be asked for as named',
};
const UNAVAILABLE_OTHER = 'its evaluation failed; its own report says why';

/** The registry types nerq evaluates (ecosystems/mcp/collect.ts): one of these left unevaluated is not a type nerq cannot read. */
const EVALUATED_TYPES = new Set(['npm', 'pypi']);

function weakestCap(weakest: { label: string; score: number }) {
  return {
    id: 'mcp-package-weakest',
    limit: weakest.score,
    ceiling: true,
    reason: `an MCP server scores no higher than its weakest package (${weakest.label}: ${weakest.score})`,
    args: { package: weakest.label, score: weakest.score },
  };
}
