/**
 * Hostile world, part 5 (continued): property-based fuzzing of every lockfile, manifest and
 * SBOM reader of `nerq audit` (src/lockfiles, the formats src/audit/detect.ts picks), at
 * 10,000 generated cases per format: npm's package-lock (v1, v2, v3, workspaces) and
 * shrinkwrap, pnpm-lock (v5, v6, v9), yarn.lock classic and berry, bun.lock, package.json,
 * requirements files (with `-r` / `-c` includes), poetry.lock, uv.lock, pdm.lock,
 * Pipfile.lock, pyproject.toml, CycloneDX and SPDX JSON.
 *
 * Inputs are an audited tree's files, so a stranger writes them: arbitrary short text in the
 * characters each syntax cares about, byte-level edits of a recorded file (fixtures/lockfiles),
 * and structure-aware edits — the file parsed, one value replaced by another of any type,
 * removed, wrapped in a list or repeated, then written back in its own syntax — with the
 * companion manifests the reader is given (root and workspace package.json, pyproject.toml,
 * Pipfile, includes) edited the same way.
 *
 * The contract: the dependencies (each a well-formed DeclaredDependency at a real line of the
 * file, with a name its registry could serve and a non-empty version or none), or a one-line
 * LockfileError naming the file (or the companion or include it could not read) — never any
 * other throw, and never the readers' catch-all ("could not be read: …" for an exception a
 * reader did not expect, which would hide a bug) except for nesting too deep to walk.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseClassicLock, stringify as stringifyClassicLock } from '@yarnpkg/lockfile';
import { parseSyml, stringifySyml } from '@yarnpkg/parsers';
import fc from 'fast-check';
import { parse as parseToml, stringify as stringifyToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { z } from 'zod';
import {
  readBunLock,
  readCycloneDx,
  readCycloneDxXml,
  readPackageJson,
  readPackageLock,
  readPdmLock,
  readPipfileLock,
  readPnpmLock,
  readPoetryLock,
  readPyproject,
  readRequirements,
  readSpdx,
  readSpdxTagValue,
  readUvLock,
  readYarnLock,
  type InputContext,
  type InputReader,
} from '../../src/lockfiles/index.js';
import { LockfileError } from '../../src/audit/types.js';
import { splitPythonLines } from '../../src/lockfiles/text.js';
import { anyJson, check, expectNoPollution, FUZZ_TEST_TIMEOUT_MS, hostileKey, mutated, ONE_LINE, outcomes } from './support/fuzz-kit.js';

const LOCKFILES = path.join(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'fixtures', 'lockfiles');
const fixture = (file: string): string => readFileSync(path.join(LOCKFILES, file), 'utf8');

/** A dependency as the audit contract (src/audit/types.ts) describes it. */
const DeclaredDependencySchema = z.strictObject({
  ecosystem: z.enum(['npm', 'pypi']),
  name: z.string().min(1),
  version: z.string().min(1).nullable(),
  spec: z.string().nullable(),
  direct: z.boolean(),
  dev: z.boolean(),
  file: z.string().min(1),
  line: z.number().int().min(1).nullable(),
  workspace: z.string().nullable(),
  resolved: z.string().nullable(),
  integrity: z.string().nullable().optional(),
  lockedFor: z.string().nullable().optional(),
  via: z.array(z.string().min(1)).optional(),
  // Where the lockfile pins an entry a workspace manifest declares: the lockfile itself.
  pinnedAt: z.strictObject({ file: z.string().min(1), line: z.number().int().min(1).nullable() }).optional(),
});

/** The catch-all of src/lockfiles/define-reader.ts, except for nesting (a stack that ran out, by design). */
const CATCH_ALL = /: could not be read: (?!nested too deeply$)/;

// ── what a format's inputs look like ────────────────────────────────────────────────────

/** Characters that mean something to one syntax or another, and any other. */
const unit = fc.oneof(
  fc.constantFrom('\n', '\r\n', '"', "'", '#', ':', ' ', '  ', '{', '}', '[', ']', '\\', '@', ',', '=', '-', '\t', '&a', '*a', '!', '|', '>', 'a', '1', '.', '==', '~=', '^', 'npm:', '__proto__', '\u0000', '\u001b[2J', '\uFEFF', '\u202e'),
  fc.string({ minLength: 1, maxLength: 1, unit: 'binary' }),
);
const arbitraryText = fc.string({ maxLength: 160, unit });

/** A byte-level edit of a valid file: cut a slice, insert a token, or repeat a slice. */
const textEdit = (text: string): fc.Arbitrary<string> =>
  fc
    .record({
      at: fc.nat({ max: text.length }),
      cut: fc.nat({ max: 40 }),
      insert: fc.oneof(fc.string({ maxLength: 12, unit }), fc.constantFrom('{', '}', '[', ']', '"', ':', ',', '\n', '  ', '\t', '#', '=', '@', '\\', '- ', '- x', '*', '&a', '<<: *a', '"__proto__": {"polluted": 1},', '\n[[package]]\n', '\n"a@1":\n')),
      repeat: fc.boolean(),
    })
    .map(({ at, cut, insert, repeat }) => (repeat ? text.slice(0, at + cut) + text.slice(at) : text.slice(0, at) + insert + text.slice(at + cut)));

/** Values a TOML document can hold (no null), hostile ones included. */
const tomlValue = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', maxDepth: 3 },
    fc.constantFrom('', '1.0.0', '>=1', '__proto__', '\u001b[2J', '*', 'x'.repeat(200), true, false, 0, -1, 1.5),
    fc.string({ maxLength: 16 }),
    fc.integer(),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(hostileKey, tie('value'), { maxKeys: 3 }),
  ),
})).value;

interface Format {
  /** Property name. */
  name: string;
  reader: InputReader;
  /** Recorded files of this format (fixtures/lockfiles/…) and the name each is read as. */
  seeds: { file: string; as: string; companions?: Record<string, string> }[];
  parse(text: string): unknown;
  serialize(doc: unknown): string;
  replacement?: fc.Arbitrary<unknown>;
  /** Entries kept at the top level and below it when a seed is shrunk (default 12 and 3). */
  shrink?: { top: number; nested: number };
}

/** `doc` with at most `top` entries at its top level and `nested` in every list or map below (small inputs keep each case cheap). */
function shrunk(doc: unknown, { top, nested }: { top: number; nested: number }, depth = 0): unknown {
  const keep = depth === 0 ? top : nested;
  if (Array.isArray(doc)) return doc.slice(0, keep).map((item) => shrunk(item, { top, nested }, depth + 1));
  if (typeof doc !== 'object' || doc === null) return doc;
  return Object.fromEntries(Object.entries(doc).slice(0, keep).map(([k, v]) => [k, shrunk(v, { top, nested }, depth + 1)]));
}

const json: Pick<Format, 'parse' | 'serialize'> = { parse: (t) => JSON.parse(t) as unknown, serialize: (d) => JSON.stringify(d, null, 2) ?? 'null' };
const yaml: Pick<Format, 'parse' | 'serialize'> = { parse: (t) => parseYaml(t) as unknown, serialize: (d) => stringifyYaml(d) };
const toml: Pick<Format, 'parse' | 'serialize' | 'replacement'> = { parse: (t) => parseToml(t), serialize: (d) => stringifyToml(d as Record<string, unknown>), replacement: tomlValue };
/** Line-based documents (XML one element a line, tag-value): the "document" is its lines. */
const lines: Pick<Format, 'parse' | 'serialize'> = {
  parse: (t) => t.split('\n'),
  serialize: (d) => (Array.isArray(d) ? d.map((line) => (typeof line === 'string' ? line : JSON.stringify(line) ?? '')).join('\n') : String(d)),
};

const npmCompanions = (dir: string, workspaces: string[] = []): Record<string, string> => ({
  'package.json': fixture(`${dir}/package.json`),
  ...Object.fromEntries(workspaces.map((w) => [`${w}/package.json`, fixture(`${dir}/${w}/package.json`)])),
});

const FORMATS: Format[] = [
  {
    name: 'package-lock.json v1/v2/v3, workspaces, npm-shrinkwrap.json',
    reader: readPackageLock,
    seeds: [
      { file: 'npm-v1/package-lock.json', as: 'package-lock.json', companions: npmCompanions('npm-v1') },
      { file: 'npm-v2/package-lock.json', as: 'package-lock.json', companions: npmCompanions('npm-v2') },
      { file: 'npm-v3/package-lock.json', as: 'package-lock.json', companions: npmCompanions('npm-v3') },
      { file: 'npm-workspaces/package-lock.json', as: 'package-lock.json', companions: npmCompanions('npm-workspaces', ['packages/app', 'packages/lib']) },
      { file: 'npm-shrinkwrap/npm-shrinkwrap.json', as: 'npm-shrinkwrap.json', companions: npmCompanions('npm-shrinkwrap') },
    ],
    ...json,
  },
  {
    name: 'pnpm-lock.yaml v5/v6/v9',
    reader: readPnpmLock,
    seeds: ['pnpm-v5', 'pnpm-v6', 'pnpm-v9'].map((dir) => ({ file: `${dir}/pnpm-lock.yaml`, as: 'pnpm-lock.yaml' })),
    // The YAML parser is the costliest of all: two entries per map.
    shrink: { top: 12, nested: 2 },
    ...yaml,
  },
  {
    name: 'yarn.lock (classic)',
    reader: readYarnLock,
    seeds: [{ file: 'yarn-classic/yarn.lock', as: 'yarn.lock', companions: npmCompanions('yarn-classic') }],
    shrink: { top: 4, nested: 3 },
    parse: (t) => (parseClassicLock(t) as { object: unknown }).object,
    serialize: (d) => stringifyClassicLock(d as Record<string, unknown>),
  },
  {
    name: 'yarn.lock (berry)',
    reader: readYarnLock,
    seeds: [{ file: 'yarn-berry/yarn.lock', as: 'yarn.lock', companions: npmCompanions('yarn-berry') }],
    shrink: { top: 5, nested: 3 },
    parse: (t) => parseSyml(t) as unknown,
    serialize: (d) => stringifySyml(d as Record<string, unknown>),
  },
  { name: 'bun.lock', reader: readBunLock, seeds: [{ file: 'bun/bun.lock', as: 'bun.lock', companions: npmCompanions('bun') }], ...json },
  { name: 'package.json', reader: readPackageJson, seeds: [{ file: 'package-json/package.json', as: 'package.json' }, { file: 'npm-workspaces/package.json', as: 'package.json' }], ...json },
  {
    name: 'requirements.txt (with -r / -c includes)',
    reader: readRequirements,
    seeds: [
      { file: 'python-requirements/requirements.txt', as: 'requirements.txt' },
      { file: 'python-requirements/requirements-dev.txt', as: 'requirements-dev.txt' },
    ],
    // Line-based: the "document" is its lines.
    parse: (t) => t.split('\n'),
    serialize: (d) => (Array.isArray(d) ? d.map((line) => (typeof line === 'string' ? line : JSON.stringify(line) ?? '')).join('\n') : String(d)),
    replacement: fc.oneof(
      fc.constantFrom('-r requirements-dev.txt', '-r ../../etc/passwd', '-c constraints.txt', '-r requirements.txt', '-e git+https://github.com/a/b#egg=b', '--index-url https://user:secret@evil.test/simple', '-i', 'flask @ https://x/y.whl', './local', '--hash=sha256:00', 'requests[socks,]>=2; python_version<"3"', 'Django==4.2.*', '===1.0', 'a==1 \\', '# via -r requirements.in', '    # via requests', 'x' .repeat(300), '\\'),
      fc.tuple(fc.constantFrom('requests', 'Flask', 'zope.interface', 'a_b', '-', ''), fc.constantFrom('==2.31.0', '>=1,<2', '~=1.0', '', '==', '===x', '!=1.*'), fc.constantFrom('', ' ; python_version < "3.8"', ' ; extra == "x"', ' \\')).map((parts) => parts.join('')),
    ),
  },
  {
    name: 'poetry.lock (1.x and legacy)',
    reader: readPoetryLock,
    seeds: [
      { file: 'python-poetry/poetry.lock', as: 'poetry.lock', companions: { 'pyproject.toml': fixture('python-poetry/pyproject.toml') } },
      { file: 'python-poetry-legacy/poetry.lock', as: 'poetry.lock', companions: { 'pyproject.toml': fixture('python-poetry-legacy/pyproject.toml') } },
    ],
    ...toml,
  },
  { name: 'uv.lock', reader: readUvLock, seeds: [{ file: 'python-uv/uv.lock', as: 'uv.lock', companions: { 'pyproject.toml': fixture('python-uv/pyproject.toml') } }], ...toml },
  { name: 'pdm.lock', reader: readPdmLock, seeds: [{ file: 'python-pdm/pdm.lock', as: 'pdm.lock', companions: { 'pyproject.toml': fixture('python-pdm/pyproject.toml') } }], ...toml },
  {
    name: 'Pipfile.lock',
    reader: readPipfileLock,
    seeds: [{ file: 'python-pipenv/Pipfile.lock', as: 'Pipfile.lock', companions: { Pipfile: fixture('python-pipenv/Pipfile') } }],
    ...json,
  },
  {
    name: 'pyproject.toml (PEP 621 and Poetry)',
    reader: readPyproject,
    seeds: ['python-pyproject', 'python-pyproject-poetry', 'python-poetry', 'python-uv'].map((dir) => ({ file: `${dir}/pyproject.toml`, as: 'pyproject.toml' })),
    ...toml,
  },
  { name: 'CycloneDX JSON', reader: readCycloneDx, seeds: [{ file: 'sbom-cyclonedx/bom.cdx.json', as: 'bom.cdx.json' }], ...json },
  { name: 'SPDX JSON', reader: readSpdx, seeds: [{ file: 'sbom-spdx/sbom.spdx.json', as: 'sbom.spdx.json' }], ...json },
  {
    name: 'CycloneDX XML',
    reader: readCycloneDxXml,
    seeds: [{ file: 'sbom-cyclonedx/bom.cdx.xml', as: 'bom.cdx.xml' }],
    // Line-based edits: each line is an element or two.
    ...lines,
    replacement: fc.constantFrom('<!DOCTYPE bom [<!ENTITY a "b">]>', '<purl>pkg:npm/a@1.0.0?x=&amp;y=&#38;&#x1F600;</purl>', '<purl>&a;</purl>', '<purl><![CDATA[pkg:npm/b@2.0.0]]></purl>', '<component bom-ref="a"><purl>pkg:npm/a@1</purl></component>', '<components>', '</component>', '<dependency ref="a"/>', '<scope>optional</scope>', '<cdx:purl>pkg:npm/c@1.0.0</cdx:purl>', '<!--', ']]>', '&', '<bom xmlns="http://example.com/">', 'x'.repeat(300)),
  },
  {
    name: 'SPDX tag-value',
    reader: readSpdxTagValue,
    seeds: [{ file: 'sbom-spdx/sbom.spdx', as: 'sbom.spdx' }],
    ...lines,
    replacement: fc.constantFrom('PackageName: x', 'SPDXID: SPDXRef-x', 'SPDXID: SPDXRef-DOCUMENT', 'PackageVersion: 1.0.0', 'ExternalRef: PACKAGE-MANAGER purl pkg:npm/x@1.0.0', 'ExternalRef: PACKAGE_MANAGER purl pkg:pypi/x', 'ExternalRef: PACKAGE-MANAGER purl', 'Relationship: SPDXRef-DOCUMENT DESCRIBES SPDXRef-x', 'Relationship: SPDXRef-x DEV_DEPENDENCY_OF SPDXRef-y', 'PackageComment: <text>', '</text>', 'FileName: ./a', 'SPDXVersion: SPDX-2.3', 'no tag here', 'x'.repeat(300)),
  },
];

interface Input {
  text: string;
  as: string;
  context: InputContext | undefined;
  /** Included files a requirements file may name (`-r`/`-c`), by path. */
  includes: Record<string, string | null | 'refused'>;
}

/** Structure-aware edits of a document, written back in its syntax (the unedited text when the syntax cannot hold the edit). */
function structured(format: Pick<Format, 'parse' | 'serialize' | 'replacement'>, text: string, shrinkTo?: Format['shrink']): fc.Arbitrary<string> {
  let doc: unknown;
  let base = text;
  try {
    doc = format.parse(text);
    if (shrinkTo !== undefined) {
      doc = shrunk(doc, shrinkTo);
      base = format.serialize(doc);
    }
  } catch {
    return fc.constant(text);
  }
  return mutated(doc, { max: 2, ...(format.replacement === undefined ? {} : { replacement: format.replacement }) }).map((edited) => {
    try {
      return format.serialize(edited);
    } catch {
      return base;
    }
  });
}

/** A seed shrunk and written back in its syntax (the recorded text when it cannot be). */
function shrunkText(format: Format, text: string): string {
  try {
    return format.serialize(shrunk(format.parse(text), format.shrink ?? DEFAULT_SHRINK));
  } catch {
    return text;
  }
}

const DEFAULT_SHRINK = { top: 12, nested: 3 };

/** A companion manifest: as recorded, edited, or any text. */
function companion(text: string): fc.Arbitrary<string> {
  return fc.oneof({ arbitrary: fc.constant(text), weight: 4 }, { arbitrary: structured(json, text), weight: 1 }, { arbitrary: arbitraryText, weight: 1 });
}

function inputs(format: Format): fc.Arbitrary<Input> {
  const perSeed = format.seeds.map((seed) => {
    const text = fixture(seed.file);
    const companions = Object.entries(seed.companions ?? {});
    const context: fc.Arbitrary<InputContext | undefined> =
      companions.length === 0
        ? fc.constant(undefined)
        : fc.option(
            fc.tuple(...companions.map(([name, content]) => (name.endsWith('.json') ? companion(content) : fc.oneof(fc.constant(content), arbitraryText)).map((c) => [name, c] as const))).map((pairs) => ({ manifests: Object.fromEntries(pairs) })),
            { nil: undefined, freq: 4 },
          );
    // Most cases edit the seed shrunk (a few entries per list: cheap); some edit it as recorded.
    const small = shrunkText(format, text);
    const body = fc.oneof(
      { arbitrary: structured(format, text, format.shrink ?? DEFAULT_SHRINK), weight: 5 },
      { arbitrary: textEdit(small), weight: 2 },
      { arbitrary: textEdit(text), weight: 1 },
      { arbitrary: fc.constant(text), weight: 1 },
    );
    const includes = fc.record({
      'requirements-dev.txt': fc.oneof(fc.constant(fixture('python-requirements/requirements-dev.txt')), arbitraryText, fc.constant(null), fc.constant('refused' as const)),
      'requirements.txt': fc.oneof(fc.constant('-r requirements.txt\n'), fc.constant(null)),
      'constraints.txt': fc.oneof(fc.constant('requests==2.31.0\n'), arbitraryText, fc.constant(null)),
    });
    return fc.record({ text: body, as: fc.constant(seed.as), context, includes });
  });
  const anyText = fc.record({
    text: arbitraryText,
    as: fc.constantFrom(...format.seeds.map((s) => s.as)),
    context: fc.constant<InputContext | undefined>(undefined),
    includes: fc.constant({}),
  });
  return fc.oneof({ arbitrary: anyText, weight: 2 }, ...perSeed.map((arbitrary) => ({ arbitrary, weight: Math.max(1, Math.round(8 / perSeed.length)) })));
}

/** The reader's context for an input: its manifests, and for requirements the includes (a refused one throws, as detect.ts's does for a path outside the tree). */
function contextOf(input: Input, format: Format): InputContext | undefined {
  if (format.reader !== readRequirements) return input.context;
  return {
    readInclude: (include) => {
      const found = Object.hasOwn(input.includes, include) ? input.includes[include] : null;
      if (found === 'refused') throw new LockfileError(include, null, 'outside the audited directory: not read');
      return found ?? null;
    },
  };
}

/**
 * How many lines a reader numbers in a text: pip's for a requirements file (Python's
 * str.splitlines(): a `\v`, a lone `\r` or U+2028 ends a line too, and the reader numbers
 * lines as pip does: test/audit/inputs/requirements.test.ts), `\n`-separated lines otherwise.
 */
function linesOf(format: Format, text: string): number {
  return format.reader === readRequirements ? splitPythonLines(text).length : text.split('\n').length;
}

describe('fuzzing: every lockfile, manifest and SBOM reader, 10,000 cases per format', () => {
  it.for(FORMATS.map((f) => [f.name, f] as const))('%s', { timeout: FUZZ_TEST_TIMEOUT_MS }, async ([, format], { task }) => {
    const seen = outcomes();
    await check(
      task,
      fc.property(inputs(format), (input) => {
        let read;
        try {
          read = format.reader(input.text, input.as, contextOf(input, format));
        } catch (error) {
          if (!(error instanceof LockfileError)) throw error;
          seen.note('error');
          expect(error.message).toMatch(ONE_LINE);
          expect(error.message).not.toMatch(CATCH_ALL);
          // It names the file read, or the companion or include it could not read.
          const named = [input.as, ...Object.keys(input.context?.manifests ?? {}), ...Object.keys(input.includes)];
          expect(named).toContain(error.file);
          expect(error.message.startsWith(`${error.file}${error.line === null ? '' : `:${error.line}`}: `)).toBe(true);
          if (error.line !== null && error.file === input.as) {
            expect(Number.isInteger(error.line) && error.line >= 1 && error.line <= linesOf(format, input.text) + 1).toBe(true);
          }
          return;
        }
        seen.note('read');
        expect(read.file).toBe(input.as);
        // The format names the file's syntax and version: a short word, whatever the file says.
        expect(read.format).toMatch(/^[\w@.-]{1,40}$/);
        for (const note of read.notes) expect(note).toMatch(ONE_LINE);
        const lines = linesOf(format, input.text);
        for (const dependency of read.dependencies) {
          const parsed = DeclaredDependencySchema.safeParse(dependency);
          expect(parsed.success, `${JSON.stringify(dependency)}: ${JSON.stringify(parsed.error?.issues[0])}`).toBe(true);
          // PyPI: a PEP 508 project name, PEP 503 normalised; npm: a name with no space or control character.
          if (dependency.ecosystem === 'pypi') expect(dependency.name).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
          else expect(dependency.name).toMatch(/^[^\s\u0000-\u001f\u007f-\u009f]+$/);
          if (dependency.file === input.as && dependency.line !== null) expect(dependency.line).toBeLessThanOrEqual(lines);
          if (dependency.pinnedAt !== undefined) expect(dependency.pinnedAt.file).toBe(input.as);
          if (dependency.pinnedAt?.line != null) expect(dependency.pinnedAt.line).toBeLessThanOrEqual(lines);
        }
        expectNoPollution();
      }),
    );
    seen.expectBoth('read', 'error');
  });
});

/** What the fuzzing above found in the readers, pinned (each fixed in src/lockfiles). */
describe('fuzzing findings, pinned', () => {
  const read = (reader: InputReader, text: string, file: string) => reader(text, file);

  it('a package with an empty or invalid name is skipped with a note, never returned (uv.lock, poetry.lock, package-lock.json)', () => {
    const uv = read(readUvLock, 'version = 1\n\n[[package]]\nname = ""\nversion = "1.0"\nsource = { registry = "https://pypi.test/simple" }\n', 'uv.lock');
    expect(uv.dependencies).toEqual([]);
    expect(uv.notes).toContainEqual(expect.stringMatching(/^uv\.lock:\d+: "" "1\.0" skipped: not a valid PyPI project name/));
    const poetry = read(readPoetryLock, '[[package]]\nname = "pytest@est"\nversion = "1.0"\n', 'poetry.lock');
    expect(poetry.dependencies).toEqual([]);
    const lock = read(readPackageLock, JSON.stringify({ name: 'x', lockfileVersion: 3, packages: { '': { name: 'x' }, 'node_modules/c  olor': { version: '1.0.0' }, 'node_modules/ok': { version: '1.0.0' } } }), 'package-lock.json');
    expect(lock.dependencies.map((d) => d.name)).toEqual(['ok']);
    expect(lock.notes).toContainEqual(expect.stringMatching(/"c {2}olor" "1\.0\.0" skipped: not a valid npm package name$/));
  });

  it('a package with an empty version is skipped: evaluating it would evaluate the latest release instead (poetry.lock, pdm.lock)', () => {
    const poetry = read(readPoetryLock, '[[package]]\nname = "requests"\nversion = ""\n', 'poetry.lock');
    expect(poetry.dependencies).toEqual([]);
    expect(poetry.notes).toContainEqual(expect.stringMatching(/"requests" "" skipped: not a valid version$/));
    const pdm = read(readPdmLock, '[[package]]\nname = "certifi"\nversion = "1.0 \\u001b[2J"\n', 'pdm.lock');
    expect(pdm.dependencies).toEqual([]);
  });

  it('a pnpm lockfileVersion that is no version is refused (it is echoed into the format name)', () => {
    expect(() => read(readPnpmLock, 'lockfileVersion: "9.0\\e[2J"\n', 'pnpm-lock.yaml')).toThrow(/^pnpm-lock\.yaml:1: unexpected structure at "lockfileVersion": not a pnpm lockfile version$/);
    expect(() => read(readPnpmLock, `lockfileVersion: '${'9'.repeat(500)}'\n`, 'pnpm-lock.yaml')).toThrow(LockfileError);
    expect(read(readPnpmLock, "lockfileVersion: '5.4-inlineSpecifiers'\n", 'pnpm-lock.yaml').format).toBe('pnpm-lock@5.4-inlineSpecifiers');
  });
});
