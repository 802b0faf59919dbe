/**
 * npm registry bodies for one package: the full packument (every version's manifest, `time`,
 * maintainers, readme), the abbreviated install document (`application/vnd.npm.install-v1+json`),
 * the tarballs of the versions a workload can fetch, and provenance attestations for the
 * versions that have them. Shapes follow the registry's (see npm's own registry fixtures).
 */
import { createHash } from 'node:crypto';
import { streamFor, type Random } from '../random.js';
import type { PackageSpec } from './model.js';
import { materialisedVersions } from './model.js';
import { buildTarball, iscLicenseText, javascriptText, mitLicenseText, readmeText, type BuiltTarball, type TarFile } from './tarball.js';
import { PERSON_WORDS } from './words.js';

export interface NpmBodies {
  full: Buffer;
  abbreviated: Buffer;
  /** Tarball path below the registry (`/name/-/name-1.0.0.tgz`) → bytes. */
  tarballs: Map<string, Buffer>;
  /** Version → attestations body, for the versions that carry provenance. */
  attestations: Map<string, Buffer>;
  /** Version → `dist.integrity`, for the versions whose tarballs were built. */
  integrity: Map<string, string>;
}

/** npm's public signing key id (the registry signs every version). */
const SIGNING_KEY_ID = 'SHA256:jl3bwswu80PjjokCgh0o2w5c2U4LhQAE57gj9cz1kzA';
const SLSA_V1 = 'https://slsa.dev/provenance/v1';
const PUBLISH_V01 = 'https://github.com/npm/attestation/tree/main/specs/publish/v0.1';

const bareName = (name: string): string => (name.startsWith('@') ? name.slice(name.indexOf('/') + 1) : name);

/** `/name/-/name-1.0.0.tgz` (scoped: `/@scope/name/-/name-1.0.0.tgz`). */
export function tarballPath(name: string, version: string): string {
  return `/${name}/-/${bareName(name)}-${version}.tgz`;
}

const email = (person: string): string => `${person}@example.com`;

/** The files of one version's tarball. */
function tarballFiles(spec: PackageSpec, version: string, manifest: Record<string, unknown>, seed: number): TarFile[] {
  const r = streamFor(seed, 'tarball', spec.index, version);
  const files: TarFile[] = [{ path: 'package.json', content: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`) }];
  if (spec.hasReadme) files.push({ path: 'README.md', content: Buffer.from(readmeText(r, spec.name, spec.description, spec.readmeBytes)) });
  if (spec.hasLicenseFile) {
    const year = Number(spec.versions[0]?.time.slice(0, 4) ?? 2020);
    const text = spec.license === 'ISC' ? iscLicenseText(year, spec.author) : mitLicenseText(year, spec.author);
    files.push({ path: 'LICENSE', content: Buffer.from(text) });
  }
  // The code: an entry point and a few modules sharing the package's code size.
  const modules = Math.max(1, Math.min(40, Math.round(spec.codeBytes / 12_000)));
  for (let i = 0; i < modules; i++) {
    const path = i === 0 ? 'index.js' : `lib/${i}.js`;
    files.push({ path, content: Buffer.from(javascriptText(r, Math.round(spec.codeBytes / modules))) });
  }
  if (spec.types) files.push({ path: 'index.d.ts', content: Buffer.from(`export declare function main(input: unknown): unknown;\n`) });
  if (spec.binaryBytes > 0) files.push({ path: 'next-swc.node', content: binaryContent(seed, spec.index, spec.binaryBytes) });
  return files;
}

/** A native binary's stand-in: incompressible bytes (hash output), deterministic per package. */
function binaryContent(seed: number, index: number, bytes: number): Buffer {
  const out = Buffer.alloc(bytes);
  const block = Buffer.alloc(64 * 1024);
  for (let at = 0; at < block.length; at += 64) createHash('sha512').update(`${seed} ${index} ${at}`).digest().copy(block, at);
  // Each 64 KiB block numbered: no two blocks alike, so no window of gzip finds a repeat.
  for (let at = 0, n = 0; at < bytes; at += block.length, n += 1) {
    block.writeUInt32BE(n, 0);
    block.copy(out, at, 0, Math.min(block.length, bytes - at));
  }
  return out;
}

/** The manifest as published in the tarball (and, with `dist` and publish fields, in the packument). */
function baseManifest(spec: PackageSpec, version: string): Record<string, unknown> {
  const manifest: Record<string, unknown> = {
    name: spec.name,
    version,
    description: spec.description,
    main: 'index.js',
    ...(spec.types ? { types: 'index.d.ts' } : {}),
    scripts: { test: 'vitest run', build: 'tsup', ...(spec.postinstall ? { postinstall: 'node scripts/setup.js' } : {}) },
    ...(spec.repository === null
      ? {}
      : {
          repository: {
            type: 'git',
            url: spec.repository.url,
            ...(spec.repository.kind === 'github' && spec.repository.directory !== null ? { directory: spec.repository.directory } : {}),
          },
        }),
    keywords: spec.keywords,
    author: { name: spec.author, email: email(spec.author) },
    license: spec.license,
    ...(spec.repository?.kind === 'github'
      ? {
          bugs: { url: `https://github.com/${spec.repository.owner}/${spec.repository.name}/issues` },
          homepage: `https://github.com/${spec.repository.owner}/${spec.repository.name}#readme`,
        }
      : {}),
    dependencies: spec.dependencies,
    devDependencies: spec.devDependencies,
    engines: { node: '>=18' },
  };
  if (spec.big) {
    // Big projects' manifests are heavy: contributors, export maps, many files entries.
    manifest.contributors = spec.maintainers.concat(PERSON_WORDS.slice(0, 12)).map((p) => ({ name: p, email: email(p) }));
    manifest.exports = Object.fromEntries(
      Array.from({ length: 24 }, (_, i) => [`./feature-${i}`, { types: `./dist/feature-${i}.d.ts`, import: `./dist/feature-${i}.mjs`, require: `./dist/feature-${i}.cjs` }]),
    );
    manifest.files = ['dist/', 'README.md', 'LICENSE', 'CHANGELOG.md'];
  }
  return manifest;
}

/** A fake but well-formed hash for a version whose tarball is never served. */
function placeholderDist(r: Random): { integrity: string; shasum: string } {
  const digest = createHash('sha512').update(r.hex(32)).digest();
  return { integrity: `sha512-${digest.toString('base64')}`, shasum: createHash('sha1').update(digest).digest('hex') };
}

export function buildNpmBodies(spec: PackageSpec, registry: string, seed: number): NpmBodies {
  const r = streamFor(seed, 'npm', spec.index);
  const materialised = new Set(materialisedVersions(spec));
  const tarballs = new Map<string, Buffer>();
  const attestations = new Map<string, Buffer>();
  const built = new Map<string, BuiltTarball>();
  for (const version of materialised) {
    // A binary does not compress: stored (gzip level 0), as large on the wire as unpacked.
    const tarball = buildTarball(tarballFiles(spec, version, baseManifest(spec, version), seed), spec.binaryBytes > 0 ? 0 : 4);
    built.set(version, tarball);
    tarballs.set(tarballPath(spec.name, version), tarball.bytes);
  }

  // Big packuments hold thousands of versions that share most of their manifest: the shared
  // part is serialised once and each version's own fields are spliced in (same JSON, far
  // faster than building and stringifying thousands of objects).
  const { version: _v, name: _n, ...shared } = baseManifest(spec, spec.latest);
  const sharedFull = JSON.stringify({
    ...shared,
    directories: {},
    maintainers: spec.maintainers.map((m) => ({ name: m, email: email(m) })),
    _hasShrinkwrap: false,
  }).slice(1, -1);
  const sharedAbbreviated = JSON.stringify({
    dependencies: spec.dependencies,
    devDependencies: spec.devDependencies,
    ...(spec.postinstall ? { hasInstallScript: true } : {}),
    engines: { node: '>=18' },
    _hasShrinkwrap: false,
  }).slice(1, -1);
  const nameJson = JSON.stringify(spec.name);

  const fullVersions: string[] = [];
  const abbreviatedVersions: string[] = [];
  const time: Record<string, string> = {};
  for (const entry of spec.versions) {
    const { version } = entry;
    const tarball = built.get(version);
    const hashes = tarball === undefined ? placeholderDist(r) : { integrity: tarball.integrity, shasum: tarball.shasum };
    const attested = spec.attested.has(version);
    const dist = JSON.stringify({
      integrity: hashes.integrity,
      shasum: hashes.shasum,
      tarball: `${registry}${tarballPath(spec.name, version)}`,
      fileCount: tarball?.fileCount ?? 4 + (spec.index % 9),
      unpackedSize: tarball?.unpackedSize ?? spec.codeBytes + spec.readmeBytes + 1200,
      signatures: [{ keyid: SIGNING_KEY_ID, sig: `MEUCI${r.hex(40)}AiEA${r.hex(48)}` }],
      ...(attested
        ? { attestations: { url: `${registry}/-/npm/v1/attestations/${spec.name}@${version}`, provenance: { predicateType: SLSA_V1 } } }
        : {}),
    });
    const versionJson = JSON.stringify(version);
    const deprecated = spec.deprecatedLatest && version === spec.latest ? ',"deprecated":"No longer maintained: use an alternative"' : '';
    fullVersions.push(
      `${versionJson}:{"name":${nameJson},"version":${versionJson},${sharedFull}${deprecated},"gitHead":"${r.hex(40)}","_id":${JSON.stringify(`${spec.name}@${version}`)},` +
        `"_nodeVersion":"${18 + (spec.index % 5)}.${spec.index % 12}.0","_npmVersion":"${9 + (spec.index % 2)}.${spec.index % 9}.1",` +
        `"dist":${dist},"_npmUser":${JSON.stringify({ name: entry.publisher, email: email(entry.publisher) })}}`,
    );
    abbreviatedVersions.push(`${versionJson}:{"name":${nameJson},"version":${versionJson},${sharedAbbreviated}${deprecated},"dist":${dist}}`);
    time[version] = entry.time;
    if (attested) attestations.set(version, attestationsBody(spec, version, hashes.integrity, registry, r));
  }
  const created = spec.versions[0]?.time ?? new Date(0).toISOString();
  const modified = spec.versions.at(-1)?.time ?? created;
  const distTags: Record<string, string> = { latest: spec.latest };
  const newest = spec.versions.at(-1)?.version;
  if (newest !== undefined && newest !== spec.latest) distTags.next = newest;

  const head = JSON.stringify({ _id: spec.name, _rev: `${spec.versions.length}-${r.hex(32)}`, name: spec.name, 'dist-tags': distTags }).slice(0, -1);
  const tail = JSON.stringify({
    time: { created, modified, ...time },
    maintainers: spec.maintainers.map((m) => ({ name: m, email: email(m) })),
    description: spec.description,
    ...(spec.repository === null ? {} : { repository: { type: 'git', url: spec.repository.url } }),
    author: { name: spec.author, email: email(spec.author) },
    license: spec.license,
    keywords: spec.keywords,
    readme: spec.hasReadme ? readmeText(streamFor(seed, 'readme', spec.index), spec.name, spec.description, spec.readmeBytes) : '',
    readmeFilename: spec.hasReadme ? 'README.md' : '',
  }).slice(1);
  const full = `${head},"versions":{${fullVersions.join(',')}},${tail}`;
  const abbreviated = `{"name":${nameJson},"dist-tags":${JSON.stringify(distTags)},"versions":{${abbreviatedVersions.join(',')}},"modified":${JSON.stringify(modified)}}`;
  return {
    full: Buffer.from(full),
    abbreviated: Buffer.from(abbreviated),
    tarballs,
    attestations,
    integrity: new Map([...built].map(([version, tarball]) => [version, tarball.integrity])),
  };
}

/** The registry's attestations answer: npm's publish attestation and a SLSA v1 provenance bundle. */
function attestationsBody(spec: PackageSpec, version: string, integrity: string, registry: string, r: Random): Buffer {
  const repo = spec.repository?.kind === 'github' ? `https://github.com/${spec.repository.owner}/${spec.repository.name}` : '';
  const subject = [
    {
      name: `pkg:npm/${spec.name.replace('@', '%40')}@${version}`,
      digest: { sha512: Buffer.from(integrity.slice('sha512-'.length), 'base64').toString('hex') },
    },
  ];
  const commit = r.hex(40);
  const provenance = {
    _type: 'https://in-toto.io/Statement/v1',
    subject,
    predicateType: SLSA_V1,
    predicate: {
      buildDefinition: {
        buildType: 'https://slsa-framework.github.io/github-actions-buildtypes/workflow/v1',
        externalParameters: { workflow: { ref: `refs/tags/v${version}`, repository: repo, path: '.github/workflows/release.yml' } },
        internalParameters: { github: { event_name: 'push', repository_id: String(r.int(1e6, 9e8)), repository_owner_id: String(r.int(1e5, 9e7)) } },
        resolvedDependencies: [{ uri: `git+${repo}@refs/tags/v${version}`, digest: { gitCommit: commit } }],
      },
      runDetails: {
        builder: { id: 'https://github.com/actions/runner/github-hosted' },
        metadata: { invocationId: `${repo}/actions/runs/${r.int(1e9, 9e9)}/attempts/1` },
      },
    },
  };
  const publish = { _type: 'https://in-toto.io/Statement/v1', subject, predicateType: PUBLISH_V01, predicate: { name: spec.name, version, registry } };
  const bundle = (statement: object) => ({
    mediaType: 'application/vnd.dev.sigstore.bundle+json;version=0.2',
    verificationMaterial: {
      x509CertificateChain: { certificates: [{ rawBytes: Buffer.from(r.hex(1800)).toString('base64') }] },
      tlogEntries: [
        {
          logIndex: String(r.int(1e7, 9e7)),
          logId: { keyId: Buffer.from(r.hex(32), 'hex').toString('base64') },
          kindVersion: { kind: 'intoto', version: '0.0.2' },
          integratedTime: String(Math.floor(Date.parse(spec.versions.at(-1)?.time ?? '2026-01-01') / 1000)),
          inclusionPromise: { signedEntryTimestamp: Buffer.from(r.hex(96)).toString('base64') },
          canonicalizedBody: Buffer.from(r.hex(1200)).toString('base64'),
        },
      ],
    },
    dsseEnvelope: {
      payload: Buffer.from(JSON.stringify(statement)).toString('base64'),
      payloadType: 'application/vnd.in-toto+json',
      signatures: [{ sig: Buffer.from(r.hex(140)).toString('base64'), keyid: '' }],
    },
  });
  return Buffer.from(
    JSON.stringify({
      attestations: [
        { predicateType: PUBLISH_V01, bundle: bundle(publish) },
        { predicateType: SLSA_V1, bundle: bundle(provenance) },
      ],
    }),
  );
}
