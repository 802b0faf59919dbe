/**
 * Hostile world: super-linear parsing. Every parser and regular expression that reads text a
 * stranger wrote (the audited tree's lockfiles, manifests, requirements and SBOMs; a tarball's
 * README and licence texts; network strings nerq sanitises) must take time linear in its input:
 * a pattern that rescans the rest of a line from each of its positions turns the 50 MB input
 * cap into hours. Properties with growing inputs: a unit of text a format's syntax cares about,
 * repeated k and 8k times at a point of a recorded file, must not take more than 24 times as
 * long (linear is 8, quadratic 64), with a few milliseconds of slack for noise; each input's
 * time is also held to a bound. Times are this thread's CPU time, not the wall clock, so another
 * process taking the core does not count; each is the best of three runs, and a pair that misses
 * its bound is measured again (twice at most) before it fails: noise misses once, super-linear
 * work (64× for 8× the input when quadratic) misses every time.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { readInputText } from '../../src/lockfiles/index.js';
import { readCargoLock } from '../../src/lockfiles/cargo-lock.js';
import { readGoMod } from '../../src/lockfiles/go-mod.js';
import { readCargoManifest } from '../../src/lockfiles/cargo-manifest.js';
import { indexVersions } from '../../src/sources/crates/index.js';
import { resolveCargoRequirement } from '../../src/ecosystems/cargo-requirement.js';
import { LockfileError } from '../../src/audit/types.js';
import { tomlLayout } from '../../src/lockfiles/toml-text.js';
import { escapeMarkdown, sanitizeForTerminal } from '../../src/render/sanitize.js';
import { pythonProjectName } from '../../src/sources/github/link.js';
import { licenceDeclarationOf } from '../../src/sources/github/licence-manifests.js';
import { readmeTail, ReadmeTailScanner } from '../../src/util/readme-tail.js';
import { declaredDeprecation, readmeOpening } from '../../src/checks/lib/readme-opening.js';
import { policyChannels } from '../../src/checks/lib/security-channel.js';
import { decideCategory } from '../../src/scoring/category.js';
import { faceListWords } from '../../src/report/face-lists.js';
import { evidence } from '../support/evidence-builder.js';
import { readTarball } from '../../src/sources/npm/tarball.js';
import { fileLookup, missingEntryPoints } from '../../src/checks/lib/entry-points.js';
import { readMcpConfig } from '../../src/audit/mcp/read-config.js';
import { repeatedKeys } from '../../src/sources/npm/packument-scan.js';
import { readInstallJavaScript } from '../../src/checks/lib/js-code.js';
import { readLoadJavaScript } from '../../src/checks/lib/load-code.js';
import { installCodeFindings, installCommandFindings } from '../../src/checks/lib/install-code.js';
import { loadedCalls, runningText } from '../../src/checks/lib/install-reach.js';
import { folderPaths, localImports } from '../../src/checks/lib/install-targets.js';
import { gypCommands } from '../../src/checks/lib/gyp-commands.js';
import { packageImports, readImportCode } from '../../src/checks/lib/import-code.js';
import { CommentSkipper } from '../../src/checks/lib/js-comments.js';
import { ObfuscationReader } from '../../src/checks/lib/obfuscation-signatures.js';
import { readBuildScript } from '../../src/checks/lib/python-code.js';
import { parse as parseToml } from 'smol-toml';
import { makeTarball } from '../support/tarball.js';
import { npmExecWords } from '../../src/ecosystems/npm/exec-argv.js';
import { namesAKeyTwice } from '../../src/front/json-depth.js';
import { noneMatchHas } from '../../src/front/if-none-match.js';
import { isoInstant } from '../../src/util/iso-instant.js';
import { answeringBadLines } from '../../src/mcp/stdio-lines.js';
import { PassThrough } from 'node:stream';
import { dlxWords } from '../../src/ecosystems/npm/dlx-argv.js';
import { readPipOptions } from '../../src/lockfiles/pip-options.js';
import { readPackageJson } from '../../src/lockfiles/package-json.js';
import { advertisedInstalls, htmlCodeTexts } from '../../src/sources/github/readme-installs.js';
import { notText } from '../../src/sources/github/repo-files.js';
import { noteCases, noteTime } from './support/metrics.js';
import { bestOf3Async, CPU_TICK_MS, expectLinear, growth, K, MAX_RATIO, SLACK_MS } from './support/linear-time.js';

// A wall-clock guard for a file of heavy properties whose measure is CPU time (see above): a
// loaded machine stretches the wall clock of a property run (13 s quiet, 36 s beside other
// work), not its ratios, so the suite's 30 s default is not this file's bound.
vi.setConfig({ testTimeout: 180_000 });

const LOCKFILES = path.join(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'fixtures', 'lockfiles');
const fixture = (file: string): string => readFileSync(path.join(LOCKFILES, file), 'utf8');

/** The same as SLACK_MS for the property runs, whose smaller inputs take a millisecond or two. */
const PROPERTY_SLACK_MS = 40;

/** The audit inputs: a recorded file of each format and the name it is read as. */
const INPUTS: { as: string; text: string }[] = [
  { as: 'package-lock.json', text: fixture('npm-v3/package-lock.json') },
  { as: 'package-lock.json', text: fixture('npm-v1/package-lock.json') },
  { as: 'package.json', text: fixture('package-json/package.json') },
  { as: 'pnpm-lock.yaml', text: fixture('pnpm-v9/pnpm-lock.yaml') },
  // pnpm 11's two documents (the environment document, then the lockfile), split at pnpm's separator.
  { as: 'pnpm-lock.yaml', text: fixture('real/pnpm__pnpm/pnpm-lock.yaml') },
  { as: 'yarn.lock', text: fixture('yarn-classic/yarn.lock') },
  { as: 'yarn.lock', text: fixture('yarn-berry/yarn.lock') },
  { as: 'bun.lock', text: fixture('bun/bun.lock') },
  { as: 'requirements.txt', text: fixture('python-requirements/requirements.txt') },
  { as: 'poetry.lock', text: fixture('python-poetry/poetry.lock') },
  { as: 'uv.lock', text: fixture('python-uv/uv.lock') },
  { as: 'pdm.lock', text: fixture('python-pdm/pdm.lock') },
  { as: 'Pipfile.lock', text: fixture('python-pipenv/Pipfile.lock') },
  { as: 'pyproject.toml', text: fixture('python-pyproject/pyproject.toml') },
  { as: 'pyproject.toml', text: fixture('python-pyproject-poetry/pyproject.toml') },
  { as: 'bom.cdx.json', text: fixture('sbom-cyclonedx/bom.cdx.json') },
  { as: 'sbom.spdx.json', text: fixture('sbom-spdx/sbom.spdx.json') },
  { as: 'bom.cdx.xml', text: fixture('sbom-cyclonedx/bom.cdx.xml') },
  { as: 'sbom.spdx', text: fixture('sbom-spdx/sbom.spdx') },
];

/** Units of text the syntaxes care about: runs of them are what backtracking patterns choke on. */
const UNIT = fc.oneof(
  fc.constantFrom(' ', '\t', '.', 'a.', '"', "'", '\\', '[', '{', ', ', ' #', 'a', ' a', ' -', '@', ': ', 'a=', '1:', ' ;', ' <', '/', '\uFFFD', '\u001b]', '\u001b[1', '"a".', ' = ', '*', '&a ', '-\n', 'a\n', '# \n'),
  fc.string({ minLength: 1, maxLength: 3, unit: fc.constantFrom(' ', '.', '"', "'", '\\', '[', ']', '{', '}', ',', '#', ':', '=', '@', ';', '-', 'a', '1', '\n') }),
);

describe('audit inputs grow linearly', () => {
  it.for(INPUTS.map((input, i) => [`${input.as} (${i})`, input] as const))(
    '%s: any unit repeated 8× more at any point takes at most 32× as long',
    { timeout: 600_000 },
    ([label, input], { task }) => {
      fc.assert(
        fc.property(UNIT, fc.nat({ max: input.text.length }), (unit, at) => {
          noteCases(task);
          const g = growth((k) => readInputText(input.text.slice(0, at) + unit.repeat(k) + input.text.slice(at), input.as, { manifests: {} }), 1000, false, PROPERTY_SLACK_MS);
          expectLinear(task, `${label}: ${JSON.stringify(unit)} at ${at}`, g);
        }),
        { numRuns: 25, seed: 22_2026 },
      );
    },
  );

  // The case that showed the class: a dotted TOML key split by a pattern that rescanned the rest
  // of the key for each dot (24 s for a 200 KB uv.lock).
  it.for(['uv.lock', 'poetry.lock', 'pdm.lock', 'pyproject.toml'])('%s: a key of thousands of dotted parts is refused, in linear time', (name, { task }) => {
    noteCases(task);
    const file = (k: number) => `${'a.'.repeat(k)}a = 1\n[${'b.'.repeat(k)}b]\nc = { ${'d.'.repeat(k)}d = 2 }\n`;
    expect(() => readInputText(file(100), name, { manifests: {} })).toThrow(/dotted parts/);
    // An inline table's key counts too.
    expect(() => readInputText(`[x]\nc = { ${'d.'.repeat(100)}d = 2 }\n`, name, { manifests: {} })).toThrow(LockfileError);
    // The size of the issue's case (200 KB) and 8× more.
    expectLinear(task, `${name} dotted key`, growth((k) => readInputText(file(k), name, { manifests: {} }), 30_000, true));
  });

  it("a Codex MCP configuration: k servers in one table (no header of their own) over 200k comment lines, the header lines looked up for each", ({ task }) => {
    // Servers and lines grow together: a search of every line for each server's header is k × 200k.
    const run = (k: number): unknown => readMcpConfig(`[mcp_servers]\n${Array.from({ length: k }, (_, i) => `s${i}={command="x"}\n`).join('')}${'#\n'.repeat(200 * k)}`, 'config.toml');
    noteCases(task);
    expectLinear(task, 'Codex servers without headers', growth(run, 60));
  });

  it('npx and npm exec words as npm reads them (exec-argv.ts): long clusters, repeated no-, many flags', ({ task }) => {
    const shapes: [string, (k: number) => string[]][] = [
      ['cluster', (k) => [`-${'yq'.repeat(k)}`, 'pkg']],
      ['no- prefixes', (k) => [`--${'no-'.repeat(k)}yes`, 'pkg']],
      ['many flags', (k) => [...Array.from({ length: k }, (_, i) => (i % 2 === 0 ? '-yL' : 'global')), 'pkg']],
      ['shorthand abbreviations', (k) => [...Array.from({ length: k }, () => '--verb'), 'pkg']],
    ];
    for (const [label, words] of shapes) {
      noteCases(task);
      expectLinear(task, `npx ${label}`, growth((k) => npmExecWords(words(k), 'npx'), 2_000));
      expectLinear(task, `npm exec ${label}`, growth((k) => npmExecWords(words(k), 'npm exec'), 2_000));
    }
  });

  it('pnpm dlx, yarn dlx and bunx words (dlx-argv.ts): many options, one long word', ({ task }) => {
    const shapes: [string, (k: number) => string[]][] = [
      ['many packages', (k) => ['dlx', ...Array.from({ length: k }, () => '--package=p'), 'pkg']],
      ['many switches', (k) => ['dlx', ...Array.from({ length: k }, () => '-q'), 'pkg']],
      ['one long flag', (k) => ['dlx', `--package=${'='.repeat(k)}`, 'pkg']],
    ];
    for (const [label, words] of shapes) {
      noteCases(task);
      expectLinear(task, `pnpm ${label}`, growth((k) => dlxWords('pnpm dlx', words(k)), 2_000));
      expectLinear(task, `yarn dlx ${label}`, growth((k) => dlxWords('yarn dlx', words(k).slice(1)), 2_000));
    }
  });

  // A requirements file's option line has no length cap: any number of words, quotes and options pip does not know.
  it('requirements option lines (pip-options.ts): many options, quoted words, unknown prefixes, one long word', ({ task }) => {
    const shapes: [string, (k: number) => string][] = [
      ['many options', (k) => '--pre --trusted-host h '.repeat(k)],
      ['an unclosed quote', (k) => `--index-url "${'a\\"\' '.repeat(k)}`],
      ['unknown prefixes', (k) => '--x --no '.repeat(k)],
      ['escaped spaces', (k) => `-i ${'\\ '.repeat(k)}`],
      ['one long option', (k) => `--${'e'.repeat(k)}=x`],
    ];
    for (const [label, line] of shapes) {
      noteCases(task);
      expectLinear(task, `pip options ${label}`, growth((k) => readPipOptions(line(k)), 2_000));
    }
  });

  // A package.json's overrides have no size cap: many selectors, deep nesting, long selectors.
  it('package.json overrides (package-json.ts): many entries, nested tables, long selectors', ({ task }) => {
    const manifest = (overrides: unknown, resolutions: unknown = {}) => JSON.stringify({ name: 'app', dependencies: { chalk: '^4' }, overrides, resolutions });
    const nested = (k: number): unknown => {
      let table: Record<string, unknown> = { x: 'github:o/r' };
      for (let i = 0; i < Math.min(k, 30); i += 1) table = { [`p${i}`]: table };
      return Object.fromEntries(Array.from({ length: Math.ceil(k / 30) }, (_, i) => [`q${i}`, table]));
    };
    const shapes: [string, (k: number) => string][] = [
      ['many entries', (k) => manifest(Object.fromEntries(Array.from({ length: k }, (_, i) => [`p${i}`, 'npm:evil@1'])))],
      ['nested tables', (k) => manifest(nested(k))],
      ['long selectors', (k) => manifest({}, { [`${'a/'.repeat(k)}@s/b@1`]: 'github:o/r', [`${'@'.repeat(k)}`]: 'x' })],
    ];
    for (const [label, text] of shapes) {
      noteCases(task);
      expectLinear(task, `overrides ${label}`, growth((k) => readPackageJson(text(k), 'package.json'), 500));
    }
  });

  // A README's MCP configuration in JSON has no line cap: its args may hold any number of options before the subcommand.
  it('README installs (readme-installs.ts): pnpm, yarn and bun add after many options of their own', ({ task }) => {
    const launch = (command: string, args: string[]) => `\`\`\`json\n${JSON.stringify({ command, args })}\n\`\`\`\n`;
    const shapes: [string, (k: number) => string][] = [
      ['pnpm switches', (k) => launch('pnpm', [...Array.from({ length: k }, () => '-w'), 'add', 'pkg'])],
      ['pnpm filters', (k) => launch('pnpm', [...Array.from({ length: k }, () => ['--filter', 'web']).flat(), 'add', 'pkg'])],
      ['yarn values', (k) => launch('yarn', [...Array.from({ length: k }, () => ['--network-timeout', '1']).flat(), 'add', 'pkg'])],
      ['bun switches, then many operands', (k) => launch('bun', [...Array.from({ length: k }, () => '--silent'), 'add', ...Array.from({ length: k }, () => 'pkg')])],
    ];
    for (const [label, text] of shapes) {
      noteCases(task);
      expectLinear(task, `README ${label}`, growth((k) => advertisedInstalls(text(k)), 2_000));
    }
  });

  // GitHub shows a README's <pre> and <code> elements as code: the HTML is read for them in one pass.
  it('README HTML code (readme-installs.ts htmlCodeTexts): runs of tags, unfinished tags, comments, entities', ({ task }) => {
    for (const unit of ['<', '<pre ', '<code>', '</code', '<!--', '<pre>a</pre>', '&amp;', '<p <p', '<code x=">" ', 'İ<PRE>']) {
      noteCases(task);
      expectLinear(task, `README HTML ${JSON.stringify(unit)}`, growth((k) => htmlCodeTexts(unit.repeat(k), Number.MAX_SAFE_INTEGER), 4000, true));
    }
  });

  it('the TOML layout scan itself, on keys and headers of many quoted parts', ({ task }) => {
    noteCases(task);
    const g = growth((k) => tomlLayout(`${'"a".'.repeat(k)}b = 1\n[${"'x'.".repeat(k)}y]\n`), 2000, true);
    expectLinear(task, 'tomlLayout', g);
  });

  it.for([
    ['a requirement followed by a run of spaces', (k: number) => `requests${' '.repeat(k)}x\n`],
    ['an option argument followed by spaces and no comment', (k: number) => `-r${' '.repeat(k)}x\n`],
    ['a URL requirement followed by spaces and no marker', (k: number) => `pkg @ https://example.test/p.whl${' '.repeat(k)}x\n`],
  ] as const)('requirements: %s', ([label, make], { task }) => {
    noteCases(task);
    const g = growth((k) => readInputText(make(k), 'requirements.txt', { manifests: {}, readInclude: () => null }), 4000, true);
    expectLinear(task, label, g);
  });

  it('pdm.lock: package names matched against a pyproject\'s worst globs (many stars, at the bounds)', ({ task }) => {
    noteCases(task);
    const glob = `${'*a'.repeat(31)}b`;
    const sources = Array.from({ length: 8 }, (_, i) => `[[tool.pdm.source]]\nname = "s${i}"\nurl = "https://s${i}.example/simple"\ninclude_packages = ["${glob}"]\nexclude_packages = ["${glob}"]\n`).join('\n');
    const pyproject = `[project]\nname = "app"\nversion = "0.1.0"\n\n${sources}`;
    const lock = (k: number) => Array.from({ length: k }, (_, i) => `[[package]]\nname = "${'a'.repeat(90)}${i}"\nversion = "1.0.0"\n`).join('\n');
    const g = growth((k) => readInputText(lock(k), 'pdm.lock', { manifests: { 'pyproject.toml': pyproject } }), 50, true);
    expectLinear(task, 'pdm globs', g);
  });

  it('poetry constraints with runs of spaces before a comma', ({ task }) => {
    noteCases(task);
    const manifest = (k: number) => `[tool.poetry]\nname = "x"\n[tool.poetry.dependencies]\nrequests = ">=1${' '.repeat(k)}x"\n`;
    const g = growth((k) => readInputText(manifest(k), 'pyproject.toml', { manifests: {} }), 4000, true);
    expectLinear(task, 'poetry constraint', g);
  });

  // A v6 or v9 key's peer and patch groups (`(react@18.2.0)`) are cut from its end: a pattern
  // anchored at the end retried from every `(` of a key of many groups not closing it (an
  // explicit `? key`: YAML refuses an implicit key over 1024 characters).
  it.for([
    ['6.0', (k: number) => ['packages:', `  ? '/a@1.0.0${'()'.repeat(k)}x'`, '  : resolution: {directory: a}']],
    ['9.0', (k: number) => ['packages:', '  a@1.0.0:', '    resolution: {directory: a}', 'snapshots:', `  ? 'a@1.0.0${'()'.repeat(k)}x'`, '  : {}']],
  ] as const)('pnpm-lock.yaml %s: a key of thousands of peer groups not closing it, in linear time', ([version, entries], { task }) => {
    noteCases(task);
    const file = (k: number) => [`lockfileVersion: '${version}'`, ...entries(k), ''].join('\n');
    expect(readInputText(file(10), 'pnpm-lock.yaml', { manifests: {} }).skipped?.[0]?.kind).toBe('local');
    expectLinear(task, `pnpm ${version} peer groups`, growth((k) => readInputText(file(k), 'pnpm-lock.yaml', { manifests: {} }), 4000, true));
  });
});

describe('network text grows linearly', () => {
  it('a licence file of binary bytes (replacement characters) read from a tarball', async ({ task }) => {
    noteCases(task);
    const tarball = (k: number) => makeTarball([{ path: 'package.json', content: '{"name":"x","version":"1.0.0"}' }, { path: 'LICENSE', content: Buffer.concat([Buffer.alloc(k, 0xff), Buffer.from('x')]) }]);
    const [small, large] = [tarball(16 * 1024), tarball(128 * 1024)];
    await readTarball(small);
    const g1 = await bestOf3Async(() => readTarball(small));
    const g8 = await bestOf3Async(() => readTarball(large));
    expectLinear(task, 'binary LICENSE', { small: g1, large: g8, bound: MAX_RATIO * Math.max(g1, CPU_TICK_MS) + SLACK_MS });
  });

  it("a package.json's repeated keys, on runs of members repeated, escaped, nested and distinct, at the top level and inside scripts", ({ task }) => {
    for (const unit of ['"a":"b",', '"name":"x",', '"scripts":{"a":"b","a":"c"},', '"\\u0061":1,', '"dependencies":{"x":[[[{}]]]},', '"bin":"x\\"y",']) {
      noteCases(task);
      expectLinear(task, `top ${JSON.stringify(unit)}`, growth((k) => repeatedKeys(Buffer.from(`{${unit.repeat(k)}"z":0}`)), 1000, true));
      expectLinear(task, `scripts ${JSON.stringify(unit)}`, growth((k) => repeatedKeys(Buffer.from(`{"scripts":{${unit.repeat(k)}"z":0}}`)), 1000, true));
    }
    noteCases(task);
    expectLinear(task, 'distinct keys', growth((k) => repeatedKeys(Buffer.from(`{"scripts":{${Array.from({ length: k }, (_, i) => `"k${i}":${i},`).join('')}"z":0}}`)), 1000, true));
  });

  it('a request body naming keys twice (the front doors refuse it): runs of members, siblings and distinct keys', ({ task }) => {
    for (const unit of ['"a":1,', '"\\u0061":1,', '{"a":1,"a":2},', '{"k":{"k":{"k":1}}},', '"s":"{\\"a\\":1}",']) {
      noteCases(task);
      expectLinear(task, `object ${JSON.stringify(unit)}`, growth((k) => namesAKeyTwice(unit.startsWith('{') ? `[${unit.repeat(k)}0]` : `{${unit.repeat(k)}"z":0}`), 1000, true));
    }
    noteCases(task);
    expectLinear(task, 'distinct keys', growth((k) => namesAKeyTwice(`{${Array.from({ length: k }, (_, i) => `"k${i}":${i},`).join('')}"z":0}`), 1000, true));
  });

  it('an If-None-Match list (serve compares it with its ETag): runs of tags, weak marks, unclosed quotes and commas', ({ task }) => {
    const etag = '"2wDVEUckC2FHMbg7-76BK3h8ELq"';
    for (const unit of ['"x", ', 'W/"x",', 'W/W/', '"', ',,', 'W/"']) {
      noteCases(task);
      expectLinear(task, `If-None-Match ${JSON.stringify(unit)}`, growth((k) => noneMatchHas(`${unit.repeat(k)}"y"`, etag), 1000, true));
    }
  });

  it("an evidence file's capturedAt and NERQ_NOW (iso-instant.ts): runs of dates, digits, dashes and time parts", ({ task }) => {
    for (const unit of ['2026-01-01', '0', '-', 'T00:00', ':00', '.0']) {
      noteCases(task);
      expectLinear(task, `instant ${JSON.stringify(unit)}`, growth((k) => isoInstant(`2026-01-01T00:00${unit.repeat(k)}Z`), 1000, true));
    }
  });

  it("nerq mcp's stdin lines (stdio-lines.ts): one line arriving in k small chunks, not JSON or a message, and many short lines", async ({ task }) => {
    const feed = (chunks: readonly string[], lines: number): Promise<void> =>
      new Promise((resolve) => {
        const input = new PassThrough();
        let seen = 0;
        const count = () => {
          seen += 1;
          if (seen === lines) resolve();
        };
        answeringBadLines(input, count).on('data', count);
        for (const chunk of chunks) input.write(chunk);
        input.end();
      });
    const cases: [string, (k: number) => string[], (k: number) => number][] = [
      ['one line not JSON, in chunks', (k) => [...Array<string>(k).fill('x'.repeat(64)), '\n'], () => 1],
      ['one message with a long string, in chunks', (k) => ['{"jsonrpc":"2.0","id":1,"method":"ping","params":{"s":"', ...Array<string>(k).fill('y'.repeat(64)), '"}}\n'], () => 1],
      ['many short lines, bad and good, in one chunk', (k) => ['{"id":1}\n{"jsonrpc":"2.0","id":1,"method":"ping"}\n'.repeat(k)], (k) => 2 * k],
    ];
    for (const [label, chunksOf, linesOf] of cases) {
      noteCases(task);
      const k = 2000;
      const [small, large] = [chunksOf(k), chunksOf(8 * k)];
      await feed(small, linesOf(k));
      const g1 = await bestOf3Async(() => feed(small, linesOf(k)));
      const g8 = await bestOf3Async(() => feed(large, linesOf(8 * k)));
      expectLinear(task, label, { small: g1, large: g8, bound: MAX_RATIO * Math.max(g1, CPU_TICK_MS) + SLACK_MS });
    }
  });

  it("entry points: `exports` patterns matched against a tarball's paths, both sharing a long prefix, grown together", ({ task }) => {
    // k patterns and 10k paths, all under one 600-character folder none of whose files ends as a
    // pattern does: each path walked compares the prefix and the suffix, so 8× of both is 64× the
    // work unless the walking budget counts characters, not paths.
    const folder = 'a/'.repeat(300);
    const run = (k: number): unknown => {
      const exports = Object.fromEntries(Array.from({ length: k }, (_, i) => [`./s${i}/*`, `./${folder}*.${'x'.repeat(200)}${i}`]));
      return missingEntryPoints({ exports }, fileLookup(Array.from({ length: k * 10 }, (_, i) => `${folder}f${i}.js`)));
    };
    noteCases(task);
    expectLinear(task, 'long-prefix patterns', growth(run, 32));
  });

  it('terminal sanitising of escape introducers, control runs and invisible characters', ({ task }) => {
    for (const unit of ['\u001b]', '\u001b[1;', '\u009b', '\u001bP', '\r\n', '\u202e', '\u001b[', '\u001b']) {
      noteCases(task);
      expectLinear(task, JSON.stringify(unit), growth((k) => sanitizeForTerminal(`${unit.repeat(k)}x`), 20_000, true));
    }
  });

  it('Markdown escaping with package references as code spans (name@version), on runs of name characters, slashes, ats and versions', { timeout: 120_000 }, ({ task }) => {
    for (const unit of ['a.', 'a/', 'a@', 'npm:a', 'a@1.', 'a@1 ', 'x:@a/b@1.0.0 ']) {
      noteCases(task);
      expectLinear(task, JSON.stringify(unit), growth((k) => escapeMarkdown(`${unit.repeat(k)}|`), 2_000, true));
    }
  });

  it("a repository file's text told from an LFS pointer or a binary file (repo-files.ts notText), on runs of pointer-like lines and replacement characters", ({ task }) => {
    for (const unit of ['version https://git-lfs.github.com/spec/v1', 'version ', '\r', '\uFFFD', '\uFEFF', 'a']) {
      noteCases(task);
      expectLinear(task, JSON.stringify(unit), growth((k) => notText(`${unit.repeat(k)}x`), 20_000, true));
    }
  });

  it('setup.py names, on a file of many keyword-like runs', ({ task }) => {
    for (const unit of ['name ', 'name=', 'name = ', '# name="x"\n', 'setup(', '"""', "'"]) {
      noteCases(task);
      expectLinear(task, JSON.stringify(unit), growth((k) => pythonProjectName('setup.py', `${unit.repeat(k)}x`, parseToml), 4000, true));
    }
  });

  it("a security policy's channel, on runs of private-reporting mentions (each one's sentence read for a negation)", ({ task }) => {
    for (const unit of ['private vulnerability reporting is not enabled ', 'Once private vulnerability reporting ', 'private vulnerability reporting ', '/security/advisories/new ', 'is not enabled. ', 'until ']) {
      noteCases(task);
      expectLinear(task, `security policy ${JSON.stringify(unit)}`, growth((k) => policyChannels(unit.repeat(k)), 1000, true));
    }
  });

  it('the headings past a long README\'s cut, on runs of fences, hashes, closing hashes and blank lines', ({ task }) => {
    // Past the cap of headings kept nothing more is pushed: units that are not headings, or one long line.
    for (const [head, unit] of [['', '```\n'], ['', '~~~~ x\n'], ['# ', '# '], ['## a', ' #'], ['', '#'], ['', ' \t'], ['', '\n'], ['```\n', '# x\n'], ['', '    ```\n']] as const) {
      noteCases(task);
      expectLinear(task, `readme tail ${JSON.stringify(unit)}`, growth((k) => readmeTail(`${head}${unit.repeat(k)}`, 0), 4000, true));
    }
    // Streamed as a tarball's README is (npm/tarball.ts): in small pieces, a line's start held, the rest only asked whether it is blank.
    for (const [head, unit] of [['', '```\n'], ['```\n```', ' '], ['```\n```', 'x'], ['# ', '# '], ['', '\n']] as const) {
      noteCases(task);
      const pieces = (k: number): unknown => {
        const text = `${head}${unit.repeat(k)}`;
        const scanner = new ReadmeTailScanner(0);
        for (let i = 0; i < text.length; i += 7) scanner.write(text.slice(i, i + 7));
        return scanner.end();
      };
      expectLinear(task, `readme tail in pieces ${JSON.stringify(unit)}`, growth(pieces, 4000, true));
    }
  });

  it('the headings past a long README\'s cut, read as the analysis reads lines (util/readme-lines.ts), on runs of comments, underlines, tags, images, bold lines, rST directives and list items', ({ task }) => {
    for (const [head, unit] of [['', '<!--'], ['', '<!-- x -->'], ['<!--', '-->'], ['<!--\n', 'x\n'], ['x', '<!--\n-->'], ['', 'x\n===\n'], ['', '<pre '], ['', '!['], ['', '<h2>'], ['', '**a**\n'], ['', '.. code-block:: x\n'], ['', '\t'], ['', '- a\n    b\n']] as const) {
      noteCases(task);
      expectLinear(task, `readme tail ${JSON.stringify(unit)}`, growth((k) => readmeTail(`${head}${unit.repeat(k)}`, 0), 4000, true));
    }
  }, 120_000);

  it('a README\'s opening (the holding-package title, the deprecation notice), on a title line of blanks and hashes', ({ task }) => {
    // The opening is its first 8,000 characters: sizes below that, each README read ten times to be measured.
    for (const [head, unit, tail] of [['# ', ' #', 'x'], ['# ', '\t', 'x'], ['## a', ' #', ''], ['# ', '#', ' x']] as const) {
      noteCases(task);
      const run = (k: number): unknown => {
        const text = `${head}${unit.repeat(k)}${tail}\n\nProse.`;
        let title: string | null = null;
        for (let i = 0; i < 10; i++) title = readmeOpening(text).title;
        return title;
      };
      expectLinear(task, `readme opening ${JSON.stringify(unit)}`, growth(run, Math.floor(7600 / (8 * unit.length))));
    }
  });

  it('a package\'s category read from its README opening (the first sentence, the rules\' phrases), on runs of reference images, dots without a blank, and phrase prefixes', ({ task }) => {
    // The opening is its first 8,000 characters: sizes below that, each README read ten times to be measured.
    for (const unit of ['![a] ', '[![n]]', 'Node.js', 'ai coding ', 'agentic ', 'an AI-powered ', 'model context ', 'executing ', 'faster ', 'building a b MCP server ', 'create ']) {
      noteCases(task);
      const run = (k: number): unknown => {
        const text = `# t\n\n${unit.repeat(k)} x`;
        const e = evidence({ registry: { keywords: [], description: 'x', hasBin: false }, tarball: { readme: { path: 'README.md', size: text.length, text, truncated: false } } });
        let found: unknown = null;
        for (let i = 0; i < 10; i++) found = decideCategory(e);
        return found;
      };
      expectLinear(task, `category README opening ${JSON.stringify(unit)}`, growth(run, Math.floor(7600 / (8 * unit.length))));
    }
  });

  it('face recognition said in a list (face-lists.ts), on runs of list items, separators, face words and the words between', ({ task }) => {
    // Read uncapped here (the AI Act section reads at most 20,000 characters): every face word and
    // recognition noun starts a walk over its list, which must stay bounded.
    for (const unit of ['detect, ', 'face detection, ', 'recognition and ', 'face ', 'faces ', 'the human ', ', and ', 'of faces ', 'face, ', 'face recognition ', 'hugging face ', "people's ", 'a b ']) {
      noteCases(task);
      const run = (k: number): unknown => faceListWords(`${unit.repeat(k)}recognize faces`);
      expectLinear(task, `face lists ${JSON.stringify(unit)}`, growth(run, 1000, true, PROPERTY_SLACK_MS));
    }
  });

  it('a README\'s first paragraph read for a declared status, on runs of coordinated names, capitalised words and the name', ({ task }) => {
    // The opening is its first 8,000 characters: sizes below that, each README read ten times to be measured.
    for (const unit of ['a and ', 'Node Sass ', 'node-sass and it ', 'this x y package & ', 'Aaaa-', 'it has merged ', 'it has merged with a-', 'merged into the a.', '> t\n', 'this is a stub ', 'This package is an empty stub types ', 'it has moved ', 'it has moved to a-', 'this x y project has moved to the ', 'it will not receive ', 'use y instead; ']) {
      noteCases(task);
      const run = (k: number): unknown => {
        const text = `# t\n\n${unit.repeat(k)} are`;
        let found: unknown = null;
        for (let i = 0; i < 10; i++) found = declaredDeprecation(text, 'node-sass');
        return found;
      };
      expectLinear(task, `readme status ${JSON.stringify(unit)}`, growth(run, Math.floor(7600 / (8 * unit.length))));
    }
  });

  it('a README\'s first section read for a declared status (its heading, an HTML heading, notices), on runs of status words, signs, tags and alert markers', ({ task }) => {
    // The opening is its first 8,000 characters: sizes below that, each README read ten times to be measured.
    const cases: [string, string, string][] = [
      ['# t\n\nA.\n\n## ', '\u26a0\ufe0f ', 'x'],
      ['# t\n\nA.\n\n## ', 'deprecated ', 'apis'],
      ['# t\n\nA.\n\n## ', 'project status: ', 'ok'],
      ['# t\n\nA.\n\n## ', 'deprecated in favour of ', 'x'],
      ['# t\n\nA.\n\n## Notice\n\n', 'this x y package & ', 'are'],
      ['# t\n\nA.\n\n<h2>', '</h2 ', 'x'],
      ['# t\n\nA.\n\n<h2', ' a=b', '>x</h2>'],
      ['# t\n\nA.\n\n', '> [!WARNING] ', 'x'],
      ['# t\n\nA.\n\n', '\u26a0\ufe0f warning: ', 'x'],
    ];
    for (const [head, unit, tail] of cases) {
      noteCases(task);
      const run = (k: number): unknown => {
        const text = `${head}${unit.repeat(k)}${tail}\n\nProse.`;
        let found: unknown = null;
        for (let i = 0; i < 10; i++) found = declaredDeprecation(text, 'node-sass');
        return found;
      };
      expectLinear(task, `readme first section ${JSON.stringify(unit)}`, growth(run, Math.floor(7600 / (8 * unit.length))));
    }
  });

  it('licences a repository\'s setup.cfg, gemspec, .NET project and pom declare, on runs of unclosed and look-alike tags, comments and blanks', ({ task }) => {
    const cases: [string, string, string, string][] = [
      ['pom.xml', '<project><licenses>', '<license>', '</licenses>'],
      ['pom.xml', '<project><licenses>', '<license><x>', '</license></licenses><name>MIT</name>'],
      ['pom.xml', '<project>', '<licenses>', ''],
      ['pom.xml', '<project>', '<!--', ''],
      ['pom.xml', '<project>', '<licensee>', '<licenses><license><name>MIT</name></license></licenses>'],
      ['x.csproj', '<Project>', '<PackageLicenseExpression>', ''],
      ['x.csproj', '<Project>', '<PackageLicenseExpressionX', ''],
      ['x.gemspec', 'Gem::Specification.new do |s|\n  s.license = a', ' ', 'b\nend\n'],
      ['x.gemspec', '  s.licenses = [', "'a', ", ''],
      ['x.gemspec', '  s.license = "MIT"', ' #{', ''],
      ['setup.cfg', '[metadata]\nlicense = ', 'a ', ''],
    ];
    for (const [file, head, unit, tail] of cases) {
      noteCases(task);
      expectLinear(task, `${file} ${JSON.stringify(unit)}`, growth((k) => licenceDeclarationOf(file, `${head}${unit.repeat(k)}${tail}`), 4000, true));
    }
  });

  it('licences a Gradle build, its gradle.properties and a setup.cfg value over many lines declare, on runs of unclosed blocks, strings, comments and continuation lines', ({ task }) => {
    const cases: [string, string, string, string][] = [
      ['setup.cfg', '[metadata]\nlicense = MIT', '\n    OR MIT', ''],
      ['setup.cfg', '[metadata]\nlicense =', '\n  ', ''],
      ['setup.cfg', '[metadata]\n', 'a ', ''],
      ['build.gradle', '', 'pom { ', ''],
      ['build.gradle', 'pom { ', 'licenses { ', ''],
      ['build.gradle', 'pom { licenses { ', 'license { pom { ', ''],
      ['build.gradle', 'pom { licenses { license { ', 'name ', "'MIT'"],
      ['build.gradle', 'pom { ', "'", ''],
      ['build.gradle.kts', 'pom { ', '"""', ''],
      ['build.gradle', 'pom { ', '/*', ''],
      ['build.gradle', 'pom { licenses { license { name = "', '\\$', ''],
      ['build.gradle', '', 'a.', ''],
      ['gradle.properties', 'POM_LICENSE_NAME=', '\\\n', ''],
      ['gradle.properties', '', '\\', ''],
      ['gradle.properties', '', ' ', 'POM_LICENSE_NAME'],
      ['gradle.properties', 'POM_LICENSE_NAME=', '\\u00', ''],
    ];
    for (const [file, head, unit, tail] of cases) {
      noteCases(task);
      expectLinear(task, `${file} ${JSON.stringify(unit)}`, growth((k) => licenceDeclarationOf(file, `${head}${unit.repeat(k)}${tail}`), 4000, true));
    }
  }, 300_000);
});

/** go.mod and Cargo.lock: a repository target's module readers (src/lockfiles/go-mod.ts, cargo-lock.ts). */
describe('dependency chains thousands deep', () => {
  /** A package-lock whose k packages each depend on the next: every one's path from the direct dependency is k long. */
  const chainLock = (k: number): string => {
    const packages: Record<string, unknown> = { '': { name: 'app', version: '1.0.0', dependencies: { p0: '1.0.0' } } };
    for (let i = 0; i < k; i += 1) {
      packages[`node_modules/p${i}`] = { version: '1.0.0', resolved: `https://registry.test/p${i}/-/p${i}-1.0.0.tgz`, ...(i + 1 < k ? { dependencies: { [`p${i + 1}`]: '1.0.0' } } : {}) };
    }
    return JSON.stringify({ name: 'app', version: '1.0.0', lockfileVersion: 3, packages });
  };
  /** The same chain in pnpm's lockfile v9. */
  const chainPnpm = (k: number): string => {
    const lines = ["lockfileVersion: '9.0'", 'importers:', '  .:', '    dependencies:', '      p0:', '        specifier: 1.0.0', '        version: 1.0.0', 'packages:'];
    for (let i = 0; i < k; i += 1) lines.push(`  p${i}@1.0.0:`, `    resolution: {integrity: sha512-AAAA}`);
    lines.push('snapshots:');
    for (let i = 0; i < k; i += 1) lines.push(`  p${i}@1.0.0:`, ...(i + 1 < k ? ['    dependencies:', `      p${i + 1}: 1.0.0`] : ['    {}']));
    return lines.join('\n');
  };

  it.for([
    ['package-lock.json', chainLock],
    ['pnpm-lock.yaml', chainPnpm],
  ] as const)('%s: read in linear time, each path at most 64 names with the middle elided', ([name, make], { task }) => {
    const deep = readInputText(make(3000), name, { manifests: {} });
    const last = deep.dependencies.find((d) => d.name === 'p2999');
    expect(last?.via).toHaveLength(64);
    expect(last?.via?.slice(0, 2)).toEqual(['p0', 'p1']);
    expect(last?.via?.[32]).toBe('…');
    expect(last?.via?.at(-1)).toBe('p2998');
    expectLinear(task, `${name} chain k deep`, growth((k) => readInputText(make(k), name, { manifests: {} }), 250, true));
  });
});

describe('module readers grow linearly', () => {
  it('go.mod: k requires, each with its own replace directive', ({ task }) => {
    const goMod = (k: number): string => {
      const lines = ['module example.com/m', 'require ('];
      for (let i = 0; i < k; i += 1) lines.push(`\texample.com/m${i} v1.0.${i}`);
      lines.push(')', 'replace (');
      for (let i = 0; i < k; i += 1) lines.push(`\texample.com/m${i} => example.com/fork${i} v1.0.${i}`);
      lines.push(')');
      return lines.join('\n');
    };
    expectLinear(task, 'go.mod requires × replaces', growth((k) => readGoMod(goMod(k), 'go.mod'), 500, true));
  });

  it('Cargo.lock: k versions of one crate, each depending on the next (a chain k deep)', ({ task }) => {
    const cargoLock = (k: number): string => {
      const blocks = ['version = 4', '[[package]]\nname = "app"\nversion = "0.1.0"\ndependencies = ["dup 1.0.0"]'];
      for (let i = 0; i < k; i += 1) {
        blocks.push(`[[package]]\nname = "dup"\nversion = "1.0.${i}"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\ndependencies = ["dup 1.0.${i + 1}", "dup"]`);
      }
      return blocks.join('\n');
    };
    expectLinear(task, 'Cargo.lock one name × versions', growth((k) => readCargoLock(cargoLock(k), 'Cargo.lock'), 500, true));
  });

  it('Cargo.toml without Cargo.lock: k dependencies inherited from a workspace root of k entries, in k target tables', ({ task }) => {
    const root = (k: number): string => `[workspace.dependencies]\n${Array.from({ length: k }, (_, i) => `c${i} = { version = "1.${i}", features = ["a"] }`).join('\n')}\n`;
    const member = (k: number): string =>
      `[dependencies]\n${Array.from({ length: k }, (_, i) => `c${i} = { workspace = true }`).join('\n')}\n${Array.from({ length: k }, (_, i) => `[target.'cfg(t${i})'.dev-dependencies]\nd${i} = "0.${i}"`).join('\n')}\n`;
    expectLinear(
      task,
      'Cargo.toml workspace members × target tables',
      growth((k) => readCargoManifest(member(k), 'a/Cargo.toml', readCargoManifest(root(k), 'Cargo.toml').workspaceDependencies), 300, true),
    );
  });

  it("crates.io index files (one JSON line per version): k versions, garbage lines between, resolved against a comma list", ({ task }) => {
    const file = (k: number): string => Array.from({ length: k }, (_, i) => `{"name":"c","vers":"1.${i}.0","yanked":${i % 7 === 0}}\n{"vers":\n`).join('');
    expectLinear(task, 'index lines × versions', growth((k) => resolveCargoRequirement(indexVersions(file(k), 'c'), '>=1.0, <1.9999, ~1'), 500, true));
  });
});

/** The code an npm install script runs (src/checks/lib/js-code.ts, js-reveal.ts, install-targets.ts): text a stranger wrote. */
describe('install-script code grows linearly', () => {
  // A file is read to 8 MiB now (in 1 MiB windows): the larger inputs take longer than the default timeout.
  it('the JavaScript reader, on runs of the units its patterns start from', { timeout: 300_000 }, ({ task }) => {
    for (const unit of ['eval(', 'eval(x', 'Buffer.from(', "require('", 'a.', '_0x12ab ', 'http://8.8.8.', 'AAAA', '\\x41', '"', '/*', '//', 'x = atob(', "import a from '", 'import ', '(', 'oastify', ' curl ', "'a' + ", "'ab'+'cd'+", 'String.fromCharCode(99,', 'Buffer.from([1,', "['a', ", "'a'.split('').reverse().join(''", 'Reflect.get(a, ', "Object.keys(a).find((k) => k === '", "m = 'spawn'; a[m]", "a['spawn']", 'a[m', "atob('YQ", '\\u0073', 'forget ', 'ignore all the previous ', 'this code is safe ', ' --yolo', "'.claude', ", ' claude', 'do not flag ', 'globalThis.eval(', '(0, eval)(', 'fetch(path.join(os.tmpdir(), os.hostname(), ', 'const u = os.hostname(); path.join(os.homedir(), u); fetch(u', 'var u=os.hostname()\n', 'const r = require;', 'var r = global.require\n', 'r(']) {
      noteCases(task);
      expectLinear(task, JSON.stringify(unit), growth((k) => readInstallJavaScript(`${unit.repeat(k)}x`), 2000, true));
    }
  });

  // A downloader's command line beside child_process (js-code.ts runsDownloadCommand): the messages, process calls and inlined package.json scripts it is looked up in.
  it('the download rule, on runs of messages, process calls and command lines', { timeout: 300_000 }, ({ task }) => {
    const head = "const cp = require('child_process');\n";
    for (const unit of ["console.log('curl -s x');", "let h = 'curl -s x'; throw new Error(h);", 'console.log(h);', 'cp.exec(x);console.log(y);', 'new Error(', 'version:"1.0.0",scripts:{a:"curl x"},dependencies:{}', "'curl -o /dev/null x' ", 'let a = ']) {
      noteCases(task);
      expectLinear(task, JSON.stringify(unit), growth((k) => readInstallJavaScript(`${head}let h = 'curl -s x';${unit.repeat(k)}x`), 2000, true));
    }
  });

  // What of a loaded module runs (install-reach.ts): its uses by the loading code and its exports found by name.
  it('the loaded-module reader, on runs of the units its load statements, uses and definitions start from', { timeout: 300_000 }, ({ task }) => {
    const called = new Set(['go', 'run', 'main']);
    for (const unit of ['export {', 'export { a as ', 'export {a as go}', 'go(', 'go (a', 'go = ', 'class go ', "require('./x')", "const x = require('./x'); x.", "import * as x from './a'; x", 'import {', "import { go } from './a'; go", "export * from './a'; ", '__importDefault(', '(await import(', 'x.go ']) {
      noteCases(task);
      expectLinear(task, `running ${JSON.stringify(unit)}`, growth((k) => runningText(`${unit.repeat(k)}x`, called), 2000, true));
      expectLinear(task, `loaded ${JSON.stringify(unit)}`, growth((k) => loadedCalls(`${unit.repeat(k)}x`, 'a/b.js', called), 2000, true));
    }
  });

  // persistence's links (js-code.ts writesStartupPlace): a few startup-file names held by names, the
  // assignments and write calls around them followed; and runs of names, past the mentions followed.
  it('the startup-place links, on runs of the units they start from', { timeout: 300_000 }, ({ task }) => {
    const head = "const rc = path.join(os.homedir(), '.bashrc');\n";
    const tail = "\nconst rd = '.zshrc';\nfs.writeFileSync(out, d);";
    for (const unit of ['a = b; ', 'a = rc + ', 'a=rc,', 'writeFile(a, ', 'copyFile(a, rc', 'writeFileSync((((', 'x = `${', '${a}', '\n', ' ', 'a = readFileSync(rc); ', "r = '.bashrc'; ", "'~/.zshrc' ", 'crontab ', 'LaunchAgents/']) {
      noteCases(task);
      expectLinear(task, JSON.stringify(unit), growth((k) => readInstallJavaScript(`${head}${unit.repeat(k)}${tail}`), 2000, true));
    }
  });

  // remote-eval's links (src/checks/lib/remote-eval.ts): a network call's callbacks, assignments
  // followed back, handlers, function bodies, long strings emptied, evaluators (their headers,
  // calls, references and events), shared members; each from a bounded number of places.
  // Two halves, each with its own deadline: every unit is calibrated to a measurable time.
  const LINK_UNITS: readonly (readonly string[])[] = [
    ['eval(a', 'eval(a); ', 'eval(', '(eval)', ', eval)', 'a = b; ', 'a += c; ', 'a.push(b); ', '{ a } = ', '{ a, ', 'a.b.c = ', 'const a of ', 'fetch(u).then(', 'fetch(', 'h.get(u, (r) => { ', 'h[', "x.on('data', (d) => { a += d; }); ", "x.on('data', ", "fs.createReadStream(p).on('data', (d) => ", 'x = new XMLHttpRequest(); x.onload = () => ', 'x.on', 'function a(u) { ', 'a = async (u) => { ', 'eval(a(b)); ', 'a === ', 'a ? ', '   ', '`${a}', "const { a } = require('https'); ", "import { a as b } from 'https'; ", "'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' + ", "'", '"', '`', '(', '{'],
    [')', 'function a(b) { eval(b); } ', 'function a(b) { eval(b); } a(c); ', 'const a = (b) => { eval(b); ', 'm(c) { eval(c); } ', 'o.m(c); ', '(b) => eval(b), ', "x.on('c', (s) => eval(s)); x.emit('c', y); ", "x.emit('c', ", "x.on('c', a); ", 'global.p = a; eval(global.p); ', "globalThis['p'] = ", 'eval(process.env.P); ', 'a(b, c, d, ', 'a.call(b, ', 'a.apply(b, [', '(a, b, c) => { a(b, c); ', 'var f = `${a}`; eval(f); ', 'e = eval; ', 'e = eval; e(a); ', 'ev = (0, eval); ev(', '[eval][0](', 'a._compile(', "import('data:", 'import(URL.createObjectURL(', 'Reflect.apply(eval, ', 'setTimeout(eval, ', 'Reflect.apply(a, b, [', 'setTimeout(a, 0, ', 'function a(b) { eval(b); } setImmediate(a, c); ', "x.on(e, (s) => eval(s)); x.emit(e, y); ", 'x.emit(e, ', 'fs.writeFileSync(p, a); require(p); ', 'writeFile(', 'createWriteStream(p); require(p); ', 'function a(b) { c = b; } a(d); eval(c); ', 'function a(b) { c = b; '],
    // Computed names, child processes, workers and paths spelled two ways (docs/security.md).
    ['globalThis[a](', 'globalThis[a](b); ', 'window[', "k = 'eval'; self[k](b); ", 'e = global[k]; e(', 'e = global[k]; ', "x.on(ev, (d) => { a += d; }); ", 'x.on(a, ', "ev = 'data'; x.on(ev, ", "exec('node -e ' + ", "spawn(process.execPath, [a], { input: b }); ", 'new Worker(a, { eval: true }); ', 'new Worker(', 'fork(', "fs.writeFileSync(path.join(__dirname, 'x.js'), a); require(__dirname + '/x.js'); ", "writeFileSync(`${__dirname}/a.js`, b); ", "execSync('node ' + p); ", 'require(a); '],
    // Listeners set another way, collectors, members computed on vm, module and objects given an evaluation, emits by a computed name, file addresses.
    ["x[on]('data', (d) => { a += d; }); ", 'x[a](b, (d) => ', 'a[b](c, ', 'aaaa[', 'a   [', "x.addListener('data', (d) => ", "x.prependListener('data', (d) => eval(d)); ", 'x.pipe(concat((b) => ', 'x.pipe(a(', 'vm[k](', "require('vm')[k](b); ", "v = require('node:vm'); ", 'module[k](', 'o.r = eval; ', 'o.r = eval; o[k](b); ', 'o.r = eval; o.r(b); ', 'o[a] = Function; ', 'o = { r: eval }; ', 'o = { ', '{ eval, ', "x.on('c', (s) => eval(s)); x.emit(E, y); ", 'x.emit(E, ', "new URL('./a.js', import.meta.url) ", "fs.writeFileSync(new URL('./x.js', import.meta.url), a); import(pathToFileURL(p).href); "],
  ];
  it.for([0, 1, 2, 3])('the downloaded-code links, on runs of the units they start from (part %i)', { timeout: 300_000 }, (part, { task }) => {
    // The network used last, far from the units: an evaluation near it would end the reading early.
    const FAR = 'x;'.repeat(400);
    for (const unit of LINK_UNITS[part]!) {
      noteCases(task);
      expectLinear(task, JSON.stringify(unit), growth((k) => readInstallJavaScript(`${unit.repeat(k)}\n${FAR}\nconst h = require('https');`), 1000, true));
    }
  });

  // Twice the units it had: twice the time (and about a third more since the class, array, bind and bundle shapes).
  it('the load-time reader, on runs of the units its structure and names start from', { timeout: 900_000 }, ({ task }) => {
    for (const unit of ["'", "'(", '`(', '"a(\\', 'function f(){', 'x(function(){', 'get(() => {', '(', ')', '{', '}', '[', ' /', '/[', '"', '`', 'class A{', 'a(){}', 'function a(){} a();', 'new A().b();', "const h = require('https');", 'h(', '      ', 'aaaa', 'Function("return this")();', '/* ', '// ', 'const a = () => {', 'a = function(){', 'a.b = (x) => {}; a.b();', 'o = { a(){} }; o.a();', 'a.', 'a.b(', 'a = ', '((', '12: (e) => {', '1: (e, t, r) => {}, ', '"a": function(){}, ', '[function(){}, ', 'function r(n){e[n](', 'r(1);', '__webpack_require__(', 'x[n](', ', ', 'async ', ': ', 'a[b](', 'o = { a(){} }; o[k]();', 'a.b[c].call(', 'a[', 'e[n](', 'setTimeout(a, ', 'on(a, b, ', 'then(', 'new (class{', 'new class{constructor(){}}(); ', 'const A = class{constructor(){}}; new A(); ', 'this[k](); ', '[a, b].forEach((f) => f()); ', '[function(){}].forEach((f) => f()); ', '[[', 'for (const f of [a]) f(); ', 'const s = [a]; s.map(f => f()); ', 'Reflect.apply(a, ', 'a.bind(b)(); ', 'const g = a.bind(b); g(); ', 'var require_x = __commonJS({ "x.js"(e, m) {} }); require_x(); ', '"a": [function(){}, {"./x": "a"}], ', 'parcelRequire = ', '},{},["a"], null)', 'var f=c((e,t)=>{', 'var f=c(()=>{}); f(); ', '=> ', 'a => a\n', 'a =>\n', ' \n', '() => a, ', '(() => a)(', 'a => b => ', 'const f = () => a; f(); ', 'r.O(0, [1], () => r(1)); ', 'a.b.c(() => 1, ', '1: (e, t, n) => { n(2) }, ', '1: (e, t, n) => { 2: (e, t, n) => {', 'function r(n){e[n](i)} r(1); ', 'parcelRegister("a", function(m, e) {', 'r("a", function(){}), ', 'var r = t.register; ', '},["a"], "a", "parcelRequire1")', 't("a"); ']) {
      expectLinear(task, JSON.stringify(unit), growth((k) => readLoadJavaScript(`${unit.repeat(k)}x`), 2000, true));
    }
  });

  // A function deep in parentheses that only group: the bracket it is handed to is found in one step, not one per level.
  it('the load-time reader, on functions deep in grouping parentheses', { timeout: 600_000 }, ({ task }) => {
    for (const [open, fn] of [['(', 'x=>1,'], ['(', 'function(){},'], ['a.filter(', '(e)=>{},'], ['if (', '()=>{},']] as const) {
      noteCases(task);
      expectLinear(task, JSON.stringify([open, fn]), growth((k) => readLoadJavaScript(`${open.repeat(k)}${fn.repeat(k)}x`), 2000, true));
    }
  });

  it('the shell reader, on scripts and on package.json commands', { timeout: 120_000 }, ({ task }) => {
    const script = (text: string) => installCodeFindings({ files: [{ path: 'x.sh', language: 'shell', size: text.length, text, truncated: false }], missing: [], unread: [] });
    for (const unit of ['curl ', '$(whoami) ', 'rm -rf ', '>> ~/.', 'cp ', "'.claude' ", ' claude --yolo', 'forget ', '/dev/tcp/', '#\n']) {
      noteCases(task);
      expectLinear(task, JSON.stringify(unit), growth((k) => script(`${unit.repeat(k)}x`), 2000, true));
      expectLinear(task, `command ${JSON.stringify(unit)}`, growth((k) => installCommandFindings([`${unit.repeat(k)}x`]), 2000, true));
    }
  });

  it('the binding.gyp reader, on runs of expansions, nested or unclosed, and actions', { timeout: 300_000 }, ({ task }) => {
    const gyp = (text: string) => installCodeFindings({ files: [{ path: 'binding.gyp', language: 'gyp', size: text.length, text, truncated: false }], missing: [], unread: [] });
    for (const unit of ["'<!(", "'<!(a)", "'action': ['a', ", '# x\n', '(', "'<!(a > /dev/null && echo b) ", "'includes': ['a.gypi', ", "[['CC', 'x'], "]) {
      noteCases(task);
      expectLinear(task, JSON.stringify(unit), growth((k) => gyp(`'${unit.repeat(k)}x'`), 1000, true));
      expectLinear(task, `bare ${JSON.stringify(unit)}`, growth((k) => gypCommands(`${unit.repeat(k)}x`), 1000, true));
    }
  });

  // The obfuscation reader sees a tarball's JavaScript in chunks (src/checks/lib/obfuscation-signatures.ts).
  it('the obfuscation reader, in chunks, on runs of the units its markers and counters start from', { timeout: 120_000 }, ({ task }) => {
    const read = (text: string, size: number) => {
      const reader = new ObfuscationReader();
      for (let at = 0; at < text.length; at += size) reader.read(text.slice(at, at + size));
      reader.read('', true);
      return reader.signatures();
    };
    const units = ['/*', '`${', 'x=/[', 'eval(atob(', 'eval((', '1,', 'setTimeout(', 'eval(', 'eval(function(p,a,c,k,e,', 'a=~[];a={___:++a,', 'a=function(){return b;};', "x['push'](x['shift']", 'function b(c,d){c=c-', '_0x12ab ', '\\x41', '\\', '[]!+', ';  ', "global['r']=require", 'a', Buffer.from('ﾟωﾟﾉ', 'utf8').toString('latin1'), 'a=', 'a=1;', 'x=(', "s=atob('QUJDQUJDQUJDQUJDQUJD');eval(s);", 'eval(s,s+', 'x=eval(s ', "x='a'+", 'x=[1,', 'x=atob(a,'];
    // Chunks of 1,000 characters: each chunk reads the carry (512) again, the costlier case.
    for (const unit of units) {
      noteCases(task);
      expectLinear(task, JSON.stringify(unit), growth((k) => read(`${unit.repeat(k)}x`, 1000), 500, true));
    }
  });

  // The reader's first step leaves comments out (src/checks/lib/js-comments.ts): long unterminated
  // comments, templates, substitutions, regular expressions and brackets past the kept depth.
  it('the comment skipper, in chunks, on unterminated comments, templates and regular expressions', { timeout: 120_000 }, ({ task }) => {
    const read = (text: string, size: number) => {
      const skipper = new CommentSkipper();
      let length = 0;
      for (let at = 0; at < text.length; at += size) length += skipper.code(text.slice(at, at + size)).length;
      return length + skipper.code('', true).length;
    };
    const units = ['/*', '/**/', '//\n', '`${', '`', '${`', 'x=/[', '/', '\\', "'", '"\\\n', '(', '{', 'if(x)', 'return ', 'a.else/', '*', '$', "'\\u{2", '"\\x2', ...['x=/[\u202e', "'\u2066\\u", '`\u202e${'].map((unit) => Buffer.from(unit, 'utf8').toString('latin1'))];
    for (const unit of units) {
      noteCases(task);
      expectLinear(task, `skipper ${JSON.stringify(unit)}`, growth((k) => read(`${unit.repeat(k)}x`, 1000), 2000, true));
    }
  });

  // installTargets reads at most 4,000 characters of a command (longer ones name nothing).
  it('local imports of a file', ({ task }) => {
    for (const unit of ["require('./", "import x from './", 'import ', 'export {} from ', '../']) {
      noteCases(task);
      expectLinear(task, JSON.stringify(unit), growth((k) => localImports(`${unit.repeat(k)}x`, 'a/b.js'), 2000, true));
    }
  });

  it('paths a file builds from its own folder', ({ task }) => {
    for (const unit of ["path.join(__dirname, 'a'", ", 'a'", 'join(__dirname', '__dirname + ', '${__dirname}/', "new URL('./a.js'", " '"]) {
      noteCases(task);
      expectLinear(task, JSON.stringify(unit), growth((k) => folderPaths(`${unit.repeat(k)}x`, 'a/b.js'), 2000, true));
    }
  });
});

/** What a PyPI wheel runs on import (src/checks/lib/import-code.ts): module text a stranger wrote. */
describe('import-time Python code grows linearly', () => {
  it('the classifier and the import reader, on runs of the units their patterns start from', ({ task }) => {
    for (const unit of ['exec(', 'from . import ', '__import__(', 'base64.b64decode(', 'subprocess.Popen(', '"', '\\x41', 'QUJD', '(', 'requests.post(', '#', 'os.chmod(', 'open(', 'powershell ', 'os.environ.items() ', 'vars(__builtins__)[', 'a', '\u{1D68E}', 'a\u{1D68E}', '\uFF41 ']) {
      noteCases(task);
      expectLinear(task, JSON.stringify(unit), growth((k) => readImportCode(`${unit.repeat(k)}x`), 1000, true));
      expectLinear(task, `imports ${JSON.stringify(unit)}`, growth((k) => packageImports(`${unit.repeat(k)}x`, 'pkg'), 1000, true));
    }
  }, 120_000);
});

describe("the JavaScript reader's startup-file rule grows linearly", () => {
  // The shell comment lines set aside (lib/js-code.ts) are looked for only once a startup file is named: the prefix names one.
  it('on runs of comment lines, blanks and startup-file names', ({ task }) => {
    for (const unit of ['# ', '#', '# .bashrc\n', '# a >> ~/.bashrc', ' \t', '\n', 'a.profile ', '/.zshrc ', '# `']) {
      noteCases(task);
      expectLinear(task, JSON.stringify(unit), growth((k) => readInstallJavaScript(`fs.appendFileSync(p, s); const rc = '~/.bashrc';\n${unit.repeat(k)}x`), 2000, true));
    }
  }, 300_000);
});

describe('captures, clipboard swaps, injection and persistence grow linearly', () => {
  it('the stealer readers, on runs of the units their patterns start from, alone and after what turns each on', ({ task }) => {
    const units = ['ImageGrab.grab(', 'x = ImageGrab.grab()\n', 'x.save(', 'ImageGrab.grab().save(', 'pyautogui.screenshot(', 'sct.shot(output=', 'from PIL import ImageGrab as g, ', 'import mss as m\n', 'from pyperclip import paste as v\n', 'mss() ', 'pyperclip.paste(', '".bashrc"', 'open(p, "a")\n', 'shutil.copy(a, ', 'SetValueEx(', 'CurrentVersion\\Run', 'WriteProcessMemory(', 'rundll32 ', '\\ncurl ', 'pyperclip.copy(', 'basicConfig(filename=', '.sendmail(', 'on_press=f, ', 'def f(k):\n    requests.post(u, k)\n'];
    // Alone, and after a prefix that turns every reader on: a capture saved to a file, a startup
    // file's name, a remote write, a clipboard write, a wallet address pattern and a key hook.
    const prefixes = ['', 'import requests, pyperclip\nfrom PIL import ImageGrab as g\nx = g.grab()\nx.save("s.png")\nrc = "~/.bashrc"\nWriteProcessMemory(h, a, b, n, None)\nr"[13][a-km-zA-HJ-NP-Z1-9]"\npyperclip.copy(a)\nkeyboard.on_press(cb)\n'];
    for (const unit of units) {
      for (const prefix of prefixes) {
        noteCases(task);
        expectLinear(task, `${prefix === '' ? '' : 'after the prefix '}${JSON.stringify(unit)}`, growth((k) => readImportCode(`${prefix}${unit.repeat(k)}x`), 1000, true));
      }
    }
  }, 300_000);
});

describe('a saved download followed to a process grows linearly', () => {
  it('the saved-path reading, on runs of downloads, writes, process calls and reassignments', ({ task }) => {
    for (const unit of ['urlretrieve(u, "a")\n', 'open(p, "wb") as f: ', 'f = open(p, "wb")\nf.write(', 'subprocess.call([a, ', 'urlretrieve(u, a)\na = a\nsubprocess.call([a])\n', 'from os import system as s, ', 'with a as b, ', 'with a as b, c as d:\n', '.write_bytes(', 'a.write_bytes(r.content)\n', ')', 'Path(a).write_text(requests.get(u).text)\n', 'wget.download(u, ', 'for c in r.iter_content(1):\n    f.write(c)\n', 'p = Path(d) / "a"\np.write_bytes(r.content)\np.chmod(0o755)\n', 'os.path.join(a, ', 'a.open("wb") as f: ', 'open(p, "xb")\n', 'requests.Session().get(']) {
      noteCases(task);
      expectLinear(task, JSON.stringify(unit), growth((k) => readImportCode(`${unit.repeat(k)}x`), 1000, true));
    }
    // Calls of a process function imported under another name, after a saved download.
    for (const unit of ['s(', 's(["./a", ', 's([a])\n']) {
      noteCases(task);
      expectLinear(task, `after an imported process function ${JSON.stringify(unit)}`, growth((k) => readImportCode(`from subprocess import call as s\nurlretrieve(u, "a")\n${unit.repeat(k)}x`), 1000, true));
    }
    // Path methods after a download saved through a Path: every `.chmod(` is read back to its receiver.
    for (const unit of ['t.chmod(', ').chmod(', '(((', 't = Path(d) / "a"\n']) {
      noteCases(task);
      expectLinear(task, `after a saved Path ${JSON.stringify(unit)}`, growth((k) => readImportCode(`t = Path(d) / "a"\nt.write_bytes(requests.get(u).content)\n${unit.repeat(k)}x`), 1000, true));
    }
  }, 120_000);

  it("through the module's own functions: parameters, helpers that return downloads, modes in names, imported names", ({ task }) => {
    for (const unit of ['def f(a, b):\n', ' def f(a, b):\n', 'def f(u, p):\n    urlretrieve(u, p)\n', 'f(u, p)\n', 'f(', 'def g(u):\n    return urlopen(u).read()\n', 'g(g(', 'x = g(u)\n', 'def h(u): return h(u)\n', 'open(p, mode)\n', 'mode = "wb"\nopen(p, mode).write(g(u))\n', 'import requests as r\n', 'import subprocess as s, ', 's.Popen(', 'def r(c):\n    exec(c)\n', 'r(urlopen(u).read())\n', 'from wget import download as d, ', '.f(', 'return ']) {
      noteCases(task);
      expectLinear(task, `functions ${JSON.stringify(unit)}`, growth((k) => readImportCode(`${unit.repeat(k)}x`), 1000, true));
      expectLinear(task, `functions after a saved parameter ${JSON.stringify(unit)}`, growth((k) => readImportCode(`def f(u, p):\n    urlretrieve(u, p)\n    return p\n${unit.repeat(k)}x`), 1000, true));
    }
    // Blocks of functions nested 30 deep, repeated: a body is read once, not once per function around it.
    const nested = Array.from({ length: 30 }, (_, i) => `${' '.repeat(i)}def f(u, p):\n${' '.repeat(i + 1)}urlretrieve(u, p)\n${' '.repeat(i + 1)}return urlopen(u).read()\n`).join('');
    noteCases(task);
    expectLinear(task, 'nested functions', growth((k) => readImportCode(`${nested.repeat(k)}f(u, p)\nx`), 4, true));
  }, 120_000);
});

/** An sdist-only release's setup.py (src/checks/lib/python-code.ts, readBuildScript; readImportCode above reads it too). */
describe('setup.py reading grows linearly', () => {
  it('the whole-text reader\'s import lines, on runs of the units its patterns start from', ({ task }) => {
    // The aliased-import reading's units (the cmdclass scan is bounded per match: build-script.test.ts).
    for (const unit of ['from os import ', 'from os import a, ', 'system as ', ', ']) {
      noteCases(task);
      expectLinear(task, JSON.stringify(unit), growth((k) => readBuildScript(`${unit.repeat(k)}x`), 1000, true));
      expectLinear(task, `after an import ${JSON.stringify(unit)}`, growth((k) => readBuildScript(`from os import ${unit.repeat(k)}x`), 1000, true));
    }
  }, 120_000);

  it('long parenthesised and continued import lists', ({ task }) => {
    for (const unit of ['a,\n', 'system as s,\n', '(\n', 'from os import (\n', '\\\n', 'from os import a, \\\n', '# a, b\n']) {
      noteCases(task);
      expectLinear(task, `in parentheses ${JSON.stringify(unit)}`, growth((k) => readBuildScript(`from subprocess import (\n${unit.repeat(k)}x`), 1000, true));
      expectLinear(task, `continued ${JSON.stringify(unit)}`, growth((k) => readBuildScript(`from os import a, \\\n${unit.repeat(k)}x`), 1000, true));
    }
  }, 120_000);
});
