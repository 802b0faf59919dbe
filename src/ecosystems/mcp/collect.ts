/**
 * `mcp:namespace/name[@version]`: an MCP Registry entry (README.md, "MCP servers"). The entry is
 * read from the registry (sources/mcp-registry), each npm / PyPI package it names is evaluated
 * as a target of its own ecosystem (its report is nested in the entry's), its repository is read
 * like a `github:` target, and the entry's own facts feed the `mcp-*` checks. `mcp:word` first
 * searches the registry: one server whose name ends in `/word` (or a single match) is used,
 * several are a usage error listing them.
 */
import type { Evidence, McpFacts, McpPackageFacts, McpPackageOutcome, Sources } from '../../evidence/schema.js';
import type { McpSection, Report } from '../../report/schema.js';
import { DEFAULT_ENDPOINTS } from '../../sources/endpoints.js';
import { fetchGithubFacts, githubRepoOf, type GithubRepoRef } from '../../sources/github/source.js';
import { npmDefaultRegistry } from '../../sources/npm/config.js';
import { fetchServerEntry, searchServers, type McpEntry, type RegistryReadContext } from '../../sources/mcp-registry/read.js';
import type { McpArgument, McpPackage } from '../../sources/mcp-registry/schema.js';
import { parseTarget } from '../../target/parse.js';
import { isMcpServerName } from './target-syntax.js';
import type { Target } from '../../target/types.js';
import { githubSourceContext } from '../../pipeline/collect-github-source.js';
import type { RunContext } from '../../pipeline/context.js';
import { evidenceOf } from '../../pipeline/evidence-of.js';
import { readRepositoryEvidence } from '../../pipeline/repository-evidence.js';
import { repositoryVulnerabilities } from '../../pipeline/vulnerabilities-for.js';
import { mapLimit } from '../../util/map-limit.js';
import type { CheckNested, Collected } from '../adapter.js';
import type { PackageEcosystem } from '../types.js';
import { packageSourcesNotApplicable } from '../no-package.js';
import { packageRulesOf } from '../rules.js';
import { remoteParts, remoteUrlShown, thisMachineHost, wideningArguments } from '../../checks/lib/mcp.js';
import { claimOf } from './claims.js';
import { packageEvaluation } from './package-evaluation.js';
import { registryRedirect } from '../registry-redirect.js';
import { foreignRegistry } from './registry-base.js';
import { withoutCredentials } from '../../util/url-credentials.js';
import { presetCodeVariable, runnerAddsCode } from './runner-code.js';
import { proxiedRemote, proxyServerCommand } from './proxies.js';

const NOT_A_PACKAGE = 'an MCP Registry entry is scored through the packages it names (nested reports)';
const PACKAGES_CARRY_DEPENDENCIES = "the entry's packages are evaluated with their own dependencies and advisories (nested reports)";
/** Candidates a usage error lists at most. */
const MAX_CANDIDATES = 10;
/** Packages of one entry evaluated at once. */
const PACKAGE_CONCURRENCY = 4;

export async function collectMcpTarget(target: Target, ctx: RunContext, checkNested: CheckNested): Promise<Collected> {
  const read: RegistryReadContext = { http: ctx.http, base: ctx.endpoints.mcpRegistry };
  let name = target.name;
  if (!name.includes('/')) {
    const found = await findByWord(read, name);
    if (found.kind === 'error') return found;
    name = found.name;
  }
  const result = await fetchServerEntry(read, name, target.spec ?? 'latest');
  if (result.status === 'not-found') {
    return { kind: 'error', code: target.spec === undefined ? 'not-found' : 'version-not-found', message: result.reason };
  }
  if (result.status === 'unavailable') return { kind: 'error', code: 'registry-unavailable', message: result.reason };
  return collectEntry(target, result.entry, ctx, checkNested);
}

async function findByWord(read: RegistryReadContext, word: string): Promise<{ kind: 'found'; name: string } | Extract<Collected, { kind: 'error' }>> {
  const search = await searchServers(read, word);
  if (search.status !== 'ok') return { kind: 'error', code: 'registry-unavailable', message: search.reason };
  // A name the registry returns is held to the rules of a name a user types (target-syntax.ts): one
  // that breaks them (control or bidi characters, kilobytes of text) is dropped, never echoed or
  // fetched, and the search is then not complete enough to pick a server for the word.
  const listed = [...new Set(search.entries.map((e) => e.server.name))];
  const found = listed.filter(isMcpServerName).sort();
  const dropped = listed.length - found.length;
  if (found.length === 0 && dropped > 0) {
    return { kind: 'error', code: 'registry-unavailable', message: `MCP Registry search: every server name it returned (${dropped}) breaks the registry's name rules` };
  }
  const notes = [
    ...(dropped === 0 ? [] : [`${dropped} server name${dropped === 1 ? '' : 's'} breaking the registry's name rules left out`]),
    ...(search.unreadable === 0 ? [] : [`${search.unreadable} entr${search.unreadable === 1 ? 'y' : 'ies'} nerq cannot read left out`]),
    ...(search.cursorRepeated ? ["the registry's paging repeated a cursor, so its list did not end"] : []),
  ];
  const note = notes.length === 0 ? '' : ` (${notes.join('; ')})`;
  // An entry nerq could not read may be the one the word names: the search is not complete.
  const complete = search.complete && dropped === 0;
  // Only a server whose name contains the word stands for it (fixtures/mcp-registry/openapi.yaml:
  // search is a substring match on the name); a registry whose search matches more — a
  // description, say — must not have a server that merely mentions the word evaluated in its place.
  const names = found.filter((n) => n.toLowerCase().includes(word.toLowerCase()));
  const exact = names.filter((n) => n.slice(n.indexOf('/') + 1).toLowerCase() === word.toLowerCase());
  const candidates = exact.length > 0 ? exact : names;
  if (candidates.length === 0 && found.length > 0) {
    const shown = found.slice(0, MAX_CANDIDATES).join(', ');
    return {
      kind: 'error',
      code: 'ambiguous',
      message: `no MCP Registry server name contains "${word}"; the registry's search found ${shown}${found.length > MAX_CANDIDATES || !complete ? ', …' : ''}${note}; name one as mcp:namespace/name`,
    };
  }
  if (candidates.length === 0 && search.unreadable > 0) {
    return { kind: 'error', code: 'registry-unavailable', message: `MCP Registry search: no server it returned that nerq can read matches "${word}"${note}` };
  }
  // "Not found" only on a list the registry ended: one it did not end may hold the server further on.
  if (candidates.length === 0 && !complete) {
    return { kind: 'error', code: 'registry-unavailable', message: `MCP Registry search: no server matching "${word}" in the part of its list nerq read${note}` };
  }
  if (candidates.length === 0) return { kind: 'error', code: 'not-found', message: `no MCP Registry server matches "${word}"${note}` };
  if (candidates.length === 1 && complete) return { kind: 'found', name: candidates[0] as string };
  const shown = candidates.slice(0, MAX_CANDIDATES).join(', ');
  const more = candidates.length > MAX_CANDIDATES || !complete ? ', …' : '';
  return {
    kind: 'error',
    code: 'ambiguous',
    message: `mcp:${word} matches ${search.complete ? candidates.length : `more than ${candidates.length}`} MCP Registry server${candidates.length === 1 && search.complete ? '' : 's'} (${shown}${more})${note}; name one as mcp:namespace/name`,
  };
}

async function collectEntry(target: Target, entry: McpEntry, ctx: RunContext, checkNested: CheckNested): Promise<Collected> {
  const { server, official } = entry;
  // Recorded and printed without a user name, password or query, which may carry a token.
  const repositoryUrl = server.repository?.url === undefined ? null : withoutCredentials(server.repository.url.trim());
  const repo = repositoryUrl === null ? null : githubRepoOf(repositoryUrl, ctx.endpoints);

  const [packages, repository] = await Promise.all([
    mapLimit(server.packages ?? [], PACKAGE_CONCURRENCY, (pkg) => evaluatePackage(pkg, server.name, ctx, checkNested)),
    repo === null
      ? Promise.resolve<EntryRepository>({
          github: {
            status: 'not-applicable',
            reason: repositoryUrl === null ? 'the entry names no source repository' : 'the entry’s repository is not on GitHub',
            // Its repository checks are unknown, not left out: hiding the source earns nothing (docs/scoring.md §1).
            undeclared: true,
          },
          dependencies: null,
        })
      : readEntryRepository(ctx, repo, server.repository?.subfolder),
  ]);
  const github = repository.github;
  // The repository's dependencies and advisories are the entry's only when none of its packages is
  // evaluated (an OCI image, a bundle, a remote: the repository is then the only code nerq reads);
  // an evaluated package's nested report carries its own, which are not counted twice (docs/scoring.md §8a).
  const packageEvaluated = packages.some((p) => p.facts.target !== null);
  let dependencies: Sources['dependencies'] = { status: 'not-applicable', reason: packageEvaluated ? PACKAGES_CARRY_DEPENDENCIES : NOT_A_PACKAGE };
  let vulnerabilities: Sources['vulnerabilities'] = dependencies;
  // With a package evaluated, the repository's own advisories are still asked (one OSV batch per
  // ecosystem) and listed as the repository's, never scored (docs/scoring.md §8a).
  let repositoryAdvisories: Sources['vulnerabilities'] | undefined;
  if (repository.dependencies !== null) {
    const read = await repository.dependencies();
    const asked = await repositoryVulnerabilities(ctx, read);
    if (packageEvaluated) repositoryAdvisories = asked;
    else {
      // The dependency set its manifests and lockfiles give, asked of OSV in one batch, as for a `github:` target.
      dependencies = read;
      vulnerabilities = asked;
    }
  }

  const facts: McpFacts = {
    name: server.name,
    version: server.version,
    description: server.description ?? null,
    status: official?.status === 'active' || official?.status === 'deprecated' ? official.status : null,
    statusUnrecognised: official?.status === undefined || official.status === 'active' || official.status === 'deprecated' ? null : official.status,
    statusMessage: official?.statusMessage ?? null,
    isLatest: official?.isLatest ?? null,
    publishedAt: official?.publishedAt ?? null,
    repositoryUrl,
    repositoryOwner: repo?.owner ?? null,
    repositoryId: server.repository?.id ?? null,
    repositorySubfolder: server.repository?.subfolder ?? null,
    packages: packages.map((p) => p.facts),
    remotes: [
      ...(server.remotes ?? []).map((remote) => ({
        type: remote.type,
        // Never a user name, password, query or fragment: they may carry a token (lib/mcp.ts).
        url: remoteUrlShown(remote.url),
        headers: (remote.headers ?? []).map((h) => h.name),
        secretHeaders: (remote.headers ?? []).filter((h) => h.isSecret === true).map((h) => h.name),
      })),
      // A package whose HTTP transport is a server elsewhere (not this machine): once the package is
      // started, the client talks to that server, whose code is a remote's (docs/mcp.md).
      ...(server.packages ?? []).flatMap((pkg) =>
        pkg.transport !== undefined && transportIsElsewhere(pkg.transport.url)
          ? [{ type: pkg.transport.type, url: remoteUrlShown(pkg.transport.url), headers: pkg.transport.headers, secretHeaders: pkg.transport.secretHeaders }]
          : [],
      ),
      // A proxy package (`mcp-remote <url>` in its package arguments): the server at that URL is
      // what the client talks to, judged as a remote; the proxy is evaluated as a package (docs/mcp.md, "Proxies").
      ...(server.packages ?? []).flatMap((pkg) => {
        const ecosystem = evaluatedEcosystem(pkg.registryType);
        const found = ecosystem === undefined ? null : proxiedRemote(ecosystem, pkg.identifier, proxyArguments(pkg.packageArguments ?? []));
        return found === null ? [] : [{ type: found.type, url: remoteUrlShown(found.url), headers: found.headers, secretHeaders: [], via: found.via }];
      }),
    ],
  };
  const sources: Sources = {
    ...packageSourcesNotApplicable(NOT_A_PACKAGE),
    dependencies,
    vulnerabilities,
    github,
    mcp: { status: 'ok', facts },
  };
  const evidence: Evidence = {
    ...evidenceOf(ctx, { input: target.input, ecosystem: 'mcp', name: server.name, version: server.version, purl: null, repository: repositoryUrl }, sources),
    // Each package's own evidence (or its error), so `nerq score` re-scores the nested reports too.
    mcpPackages: packages.map((p) => p.outcome),
    ...(repositoryAdvisories === undefined ? {} : { mcpRepositoryAdvisories: repositoryAdvisories }),
  };
  const mcp: McpSection = {
    server: server.name,
    version: server.version,
    packages: packages.map(({ facts: p, report }) => ({
      registryType: p.registryType,
      identifier: p.identifier,
      version: p.version,
      target: p.target,
      notEvaluated: p.notEvaluated,
      report,
    })),
    remotes: facts.remotes.map(({ type, url }) => ({ type, url })),
  };
  return { kind: 'evidence', evidence, mcp };
}

interface EntryRepository {
  github: Sources['github'];
  /** The repository's dependency set, resolved when asked for; null when the entry has no GitHub repository to read them from. */
  dependencies: (() => Promise<Sources['dependencies']>) | null;
}

/**
 * The entry's GitHub repository, read as a `github:` target's is (pipeline/repository-evidence.ts):
 * its facts, and when GitHub answers it present, its files at the default branch. When GitHub does
 * not answer, or the repository is gone, its dependencies are unavailable — never an empty set.
 */
async function readEntryRepository(ctx: RunContext, repo: GithubRepoRef, subfolder: string | undefined): Promise<EntryRepository> {
  const github = await fetchGithubFacts(githubSourceContext(ctx), repo, { kind: 'target' });
  if (github.status !== 'ok') {
    return { github, dependencies: () => Promise.resolve({ status: 'unavailable', reason: github.reason, code: 'depends-on-source' }) };
  }
  if (github.facts.state !== 'present') {
    const reason = `the repository could not be read: ${github.facts.absentReason ?? 'GitHub does not have it'}`;
    return { github, dependencies: () => Promise.resolve({ status: 'unavailable', reason, code: 'depends-on-source' }) };
  }
  // A monorepo's entry is judged on its own folder (docs/scoring.md §8a).
  const read = await readRepositoryEvidence(ctx, github.facts, { owner: repo.owner, name: repo.name }, undefined, subfolder);
  // Without a ref the default branch is read: no ref can be missing; a folder not listed is read as unknowns (folderMustExist unset).
  if (read.kind !== 'read') return { github, dependencies: null };
  return { github: { status: 'ok', facts: read.facts }, dependencies: read.dependencies };
}

/** The registries a package of the ecosystem is read from: the configured ones and the public default. */
function vouchedRegistries(ecosystem: PackageEcosystem, identifier: string, ctx: RunContext): string[] {
  switch (ecosystem) {
    case 'pypi':
      return [ctx.endpoints.pypi, DEFAULT_ENDPOINTS.pypi];
    case 'npm':
      return [ctx.npm.registryFor(identifier), ctx.npm.registry, ctx.endpoints.npmPublicRegistry, npmDefaultRegistry()];
    default:
      return ecosystem satisfies never;
  }
}

/** The registry types nerq evaluates, and the ecosystem that owns each. */
const EVALUATED = { npm: 'npm', pypi: 'pypi' } as const;

/** The ecosystem that owns a registry type nerq evaluates; undefined for any other (`oci`, or `constructor`: an object's own property is none). */
const evaluatedEcosystem = (registryType: string): 'npm' | 'pypi' | undefined =>
  Object.hasOwn(EVALUATED, registryType) ? EVALUATED[registryType as keyof typeof EVALUATED] : undefined;

interface EvaluatedPackage {
  facts: McpPackageFacts;
  report: Report | null;
  /** What `--save-evidence` keeps of it (evidence/schema.ts, McpPackageOutcomeSchema). */
  outcome: McpPackageOutcome;
}

async function evaluatePackage(pkg: McpPackage, server: string, ctx: RunContext, checkNested: CheckNested): Promise<EvaluatedPackage> {
  // An empty version names none: the registry type's default (npm's latest), as an absent one.
  const version = pkg.version?.trim() || null;
  const base: McpPackageFacts = {
    registryType: pkg.registryType,
    identifier: pkg.identifier,
    version,
    registryBaseUrl: pkg.registryBaseUrl ?? null,
    fileSha256: pkg.fileSha256 ?? null,
    target: null,
    evaluation: null,
    notEvaluated: null,
    claim: null,
    runtimeHint: pkg.runtimeHint ?? null,
    runtimeArguments: argumentWords(pkg.runtimeArguments ?? []),
    secretVariables: (pkg.environmentVariables ?? []).filter((v) => v.isSecret === true).map((v) => v.name),
    ...(pkg.unreadable.length > 0 ? { unreadable: pkg.unreadable } : {}),
  };
  const ecosystem = evaluatedEcosystem(pkg.registryType);
  if (ecosystem === undefined) return { facts: { ...base, notEvaluated: `${pkg.registryType} packages are not evaluated yet` }, report: null, outcome: null };
  // A version, runtime hint or registry base URL nerq cannot read (a number, an over-long text):
  // evaluating the package without it would judge the registry type's default in its place — the
  // latest release, npx, the public registry — which is not what the entry says (schema.ts).
  if (pkg.unreadable.length > 0) {
    return { facts: { ...base, notEvaluated: `its ${pkg.unreadable.join(', ')} cannot be read: not evaluated` }, report: null, outcome: null };
  }
  const vouched = vouchedRegistries(ecosystem, pkg.identifier, ctx);
  const foreign = foreignRegistry(pkg.registryBaseUrl, vouched);
  if (foreign !== null) return { facts: { ...base, notEvaluated: foreign }, report: null, outcome: null };
  // Runtime arguments or variables that point the runner elsewhere (`--registry`, `NPM_CONFIG_REGISTRY`) install another package.
  const redirect = registryRedirect(ecosystem, argumentList(pkg.runtimeArguments ?? []), (pkg.environmentVariables ?? []).map((v) => v.name), vouched);
  if (redirect !== null) {
    return { facts: { ...base, notEvaluated: `installed through ${redirect.host ?? redirect.source}, which its runtime arguments or variables name: not evaluated` }, report: null, outcome: null };
  }
  // Runtime arguments or a variable the entry sets that make the runner install or run other code
  // (`-p other`, `--from git+…`, `NODE_OPTIONS=--import=…`): the package is not what runs.
  const added = runnerAddsCode(ecosystem, pkg.runtimeArguments ?? [], pkg.runtimeHint, pkg.identifier) ?? presetCodeVariable(pkg.environmentVariables ?? []);
  if (added !== null) {
    return { facts: { ...base, notEvaluated: `its runtime arguments or variables (${added}) make the runner install or run other code than the package: not evaluated` }, report: null, outcome: null };
  }
  // A proxy started in its server mode (`supergateway --stdio "…"`) runs the command its package
  // arguments give as the server: the proxy is not the code a client talks to (docs/mcp.md, "Proxies").
  const served = proxyServerCommand(ecosystem, pkg.identifier, proxyArguments(pkg.packageArguments ?? []));
  if (served !== null) {
    return { facts: { ...base, notEvaluated: `a proxy started in its server mode: it runs ${served === 'a command' ? 'a command' : `the command ${served}`} its package arguments give, which is not evaluated` }, report: null, outcome: null };
  }
  let target: Target;
  try {
    const rules = packageRulesOf(ecosystem).registry;
    const text = rules.targetInput(pkg.identifier, version, null);
    // npm writes a bare name; the prefix keeps a name such as `pypi` from meaning another ecosystem.
    target = parseTarget(text.startsWith(`${ecosystem}:`) ? text : `${ecosystem}:${text}`);
  } catch {
    return { facts: { ...base, notEvaluated: `not a valid ${ecosystem} package name or version` }, report: null, outcome: null };
  }
  // Each package is its own target: its direct dependencies are resolved as for `nerq check`.
  const outcome = await checkNested(target, ctx);
  const report = outcome.report;
  return {
    facts: {
      ...base,
      target: target.input,
      evaluation: packageEvaluation(report, outcome.evidence),
      claim: claimOf(outcome.evidence, pkg.registryType, server),
    },
    report,
    outcome: outcomeOf(outcome.evidence, report),
  };
}

/** A package's evidence, or — when it could not be evaluated — its error report's target and error. */
function outcomeOf(evidence: Evidence | null, report: Report): McpPackageOutcome {
  if (evidence !== null) return { evidence };
  const { ecosystem, name, version } = report.target;
  return report.error === null ? null : { error: { ecosystem, name, version, code: report.error.code, message: report.error.message } };
}

/** Runtime arguments as the argument list a launcher would get: `['--registry', 'https://…']`. */
function argumentList(args: readonly McpArgument[]): string[] {
  return args.flatMap((a) => [a.name, a.value ?? a.default].filter((w): w is string => w !== undefined && w !== ''));
}

/**
 * Package arguments as a proxy gets them; one the user fills in (no `value` nor `default`) as the
 * `{valueHint}` template it is, so a proxy's URL left to the user is judged as a templated remote.
 */
function proxyArguments(args: readonly McpArgument[]): string[] {
  const valueOf = (a: McpArgument) => a.value ?? a.default ?? (a.valueHint === undefined ? undefined : `{${a.valueHint}}`);
  return args.flatMap((a) => [a.type === 'positional' ? undefined : a.name, valueOf(a)].filter((w): w is string => w !== undefined && w !== ''));
}

/** What a secret argument's value is recorded as. */
const SECRET_VALUE = '{secret}';

/**
 * Runtime arguments as the words a launcher would pass: `--network host`, `-v /var/run/docker.sock:…`.
 * These are recorded (evidence, the store), so the value of an argument the entry marks secret
 * (`isSecret`) is written `{secret}` — unless the word widens the container's reach, which is
 * then what the value is, and what mcp-runtime-reach must judge.
 */
function argumentWords(args: readonly McpArgument[]): string[] {
  const words = (name: string | undefined, value: string | undefined) => [name, value].filter((w): w is string => w !== undefined && w !== '').join(' ');
  return args
    .map((a) => {
      const value = a.value ?? a.default;
      const word = words(a.name, value);
      const hidden = a.isSecret === true && value !== undefined && value !== '' && wideningArguments([word]).length === 0;
      return hidden ? words(a.name, SECRET_VALUE) : word;
    })
    .filter((w) => w !== '');
}

/**
 * Whether a package's transport URL names a literal host other than this machine's
 * (`https://mcp.evil.example/mcp`, `https://{tenant}.evil.example/mcp`); a loopback host or one a
 * variable sets whole (`http://localhost:{--port}/mcp`, `http://{host}:{port}/mcp`) is the
 * package's own local server.
 */
function transportIsElsewhere(url: string): boolean {
  // A host with variables in its leading labels lies under its literal domain (lib/mcp.ts, remoteParts).
  const { host } = remoteParts(url);
  return host !== null && !thisMachineHost(host);
}
