/**
 * `github:owner/repo`: a project scored from its repository alone (many MCP servers and AI tools
 * publish no package). Every package source is not-applicable; the repository is the target, so
 * the link needs no verification.
 */
import type { Sources } from '../../evidence/schema.js';
import { GITHUB_HOST } from '../../sources/endpoints.js';
import { fetchGithubFacts } from '../../sources/github/source.js';
import { quoteForMessage } from '../../target/syntax.js';
import { purlOf } from '../../target/purl.js';
import type { Target } from '../../target/types.js';
import { githubSourceContext } from '../../pipeline/collect-github-source.js';
import type { Collected } from '../adapter.js';
import { packageSourcesNotApplicable } from '../no-package.js';
import type { RunContext } from '../../pipeline/context.js';
import { evidenceOf } from '../../pipeline/evidence-of.js';
import { repositoryVulnerabilities } from '../../pipeline/vulnerabilities-for.js';
import { readRepositoryEvidence } from '../../pipeline/repository-evidence.js';
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
  // A folder the target names (`github:owner/repo/src/server`) is read as an MCP entry's subfolder is.
  const read = await readRepositoryEvidence(ctx, github.facts, { owner, name }, target.spec, target.folder, { folderMustExist: true });
  if (read.kind === 'missing-ref') {
    return { kind: 'error', code: 'not-found', message: `${read.fullName} has no ref ${quoteForMessage(target.spec ?? '')} on GitHub` };
  }
  if (read.kind === 'missing-folder') {
    return { kind: 'error', code: 'not-found', message: `${read.fullName} has no folder ${quoteForMessage(read.folder)} on GitHub` };
  }
  let facts = read.facts;
  const dependencies = await read.dependencies();
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
        ...(target.folder === undefined ? {} : { folder: target.folder }),
        ...(facts.files?.commit === undefined ? {} : { commit: facts.files.commit }),
      },
      sources,
    ),
  };
}
