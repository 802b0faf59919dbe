/**
 * `github:owner/repo`: a project scored from its repository alone (many MCP servers and AI tools
 * publish no package). Every package source is not-applicable; the repository is the target, so
 * the link needs no verification.
 */
import type { Sources } from '../../evidence/schema.js';
import { GITHUB_HOST } from '../../sources/endpoints.js';
import { fetchForkCommits, fetchGithubFacts, fetchRepositoryFiles } from '../../sources/github/source.js';
import { factsAtCommit } from '../../sources/github/pinned-facts.js';
import { quoteForMessage } from '../../target/syntax.js';
import { purlOf } from '../../target/purl.js';
import type { Target } from '../../target/types.js';
import { githubSourceContext } from '../../pipeline/collect-github-source.js';
import type { Collected } from '../adapter.js';
import { packageSourcesNotApplicable } from '../no-package.js';
import type { RunContext } from '../../pipeline/context.js';
import { evidenceOf } from '../../pipeline/evidence-of.js';
import { repositoryVulnerabilities } from '../../pipeline/vulnerabilities-for.js';
import { resolveRepositoryRanges } from '../../pipeline/repository-ranges.js';
import { collectDistribution } from '../../pipeline/repository-distribution.js';
import { collectIncludedPackage, pickIncludedPackage, withOwnAdvisories } from '../../pipeline/include-package.js';

const NO_PACKAGE = 'a repository target publishes no package';

export async function collectGithubTarget(target: Target, ctx: RunContext): Promise<Collected> {
  const [owner = '', name = ''] = target.name.split('/');
  const github = await fetchGithubFacts(
    githubSourceContext(ctx),
    { host: GITHUB_HOST, owner, name },
    { kind: 'target' },
  );
  if (github.status !== 'ok') {
    return { kind: 'error', code: 'registry-unavailable', message: `GitHub could not answer for ${target.name}: ${github.reason}` };
  }
  if (github.facts.state !== 'present') {
    const why = github.facts.state === 'blocked' ? ` (blocked: ${github.facts.absentReason ?? 'no reason given'})` : '';
    return { kind: 'error', code: 'not-found', message: `${target.name} was not found on GitHub${why}` };
  }
  const fullName = github.facts.repository?.fullName ?? target.name;
  // The target is the repository: its own files are its documents, manifests and licence.
  const repository = github.facts.repository;
  let facts = github.facts;
  let dependencies: Sources['dependencies'] = { status: 'unavailable', reason: 'the repository answer named no repository to read', code: 'bad-answer' };
  if (repository !== null) {
    const [repoOwner = owner, repoName = name] = fullName.split('/');
    // A ref (`github:owner/repo@ref`) is read at the commit it names, never at the default branch in its place.
    const files = await fetchRepositoryFiles(githubSourceContext(ctx), { host: repository.host, owner: repoOwner, name: repoName }, repository.defaultBranch, target.spec);
    if (!files.ok && files.missingRef === true) {
      return { kind: 'error', code: 'not-found', message: `${fullName} has no ref ${quoteForMessage(target.spec ?? '')} on GitHub` };
    }
    // What it tells people to install, looked up in the registries (docs/scoring.md §9).
    const distribution = files.ok ? await collectDistribution(ctx, repository, `${owner}/${name}`, files.value, files.read) : undefined;
    // A pinned target's security policy, community files and CI are its commit's, or unknown — never the default branch's (sources/github/pinned-facts.ts).
    if (target.spec !== undefined) facts = files.ok ? factsAtCommit(facts, files.read.tree, files.value.treeTruncated) : factsAtCommit(facts, null, false, files.reason);
    // A fork: its own commits told from its parent's (one request); unanswered, its facts stay the copied ones (docs/scoring.md §9, "A fork").
    const own = repository.fork ? await fetchForkCommits(githubSourceContext(ctx), repository) : undefined;
    facts = {
      ...facts,
      files: files.ok ? files.value : null,
      ...(distribution === undefined ? {} : { distribution }),
      ...(own?.result.ok === true ? { forkCommits: own.result.value } : {}),
      unknown: files.ok ? facts.unknown : { ...facts.unknown, files: files.reason },
      via: { ...facts.via, requests: facts.via.requests + files.requests + (own?.requests ?? 0) },
    };
    // Direct ranges no lockfile pins: resolved as the package manager would today, within a budget.
    dependencies = files.ok ? await resolveRepositoryRanges(ctx, files.dependencies) : { status: 'unavailable', reason: `the repository files could not be read: ${files.reason}`, code: 'depends-on-source' };
  }
  // The dependency set its manifests and lockfiles give, asked of OSV in one batch.
  let vulnerabilities = await repositoryVulnerabilities(ctx, dependencies);
  let packageSources = packageSourcesNotApplicable(NO_PACKAGE);
  if (ctx.includePackage !== undefined) {
    // --include-package: one verified package's registry checks folded in (pipeline/include-package.ts).
    const picked = pickIncludedPackage(facts.distribution, facts.files?.manifests ?? [], fullName, ctx.includePackage.name);
    if (picked.kind === 'usage') return { kind: 'error', code: 'bad-option', message: picked.message };
    let included = picked.kind === 'none' ? picked.note : undefined;
    if (picked.kind === 'pick') {
      const folded = await collectIncludedPackage(ctx, picked, fullName);
      packageSources = { ...packageSources, ...folded.sources };
      vulnerabilities = withOwnAdvisories(vulnerabilities, folded.ownVulnerabilities);
      included = folded.note;
    }
    if (included !== undefined) facts = { ...facts, includedPackage: included };
  }
  const sources: Sources = {
    ...packageSources,
    dependencies,
    vulnerabilities,
    github: { status: 'ok', facts },
  };
  return {
    kind: 'evidence',
    evidence: evidenceOf(
      ctx,
      {
        input: target.input,
        ecosystem: 'github',
        name: fullName,
        version: target.spec ?? null,
        purl: purlOf('github', fullName, target.spec),
        repository: github.facts.repository?.htmlUrl ?? null,
        ...(facts.files?.commit === undefined ? {} : { commit: facts.files.commit }),
      },
      sources,
    ),
  };
}
