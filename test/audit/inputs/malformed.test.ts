/**
 * Malformed inputs: a `LockfileError` naming the file and the line to fix, and never any other
 * kind of error, whatever the bytes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readInputText } from '../../../src/lockfiles/index.js';
import { LockfileError } from '../../../src/audit/types.js';
import { fixture, lineOf, lockfileErrorOf } from './helpers.js';

describe('malformed fixtures fail at the offending line', () => {
  it.each([
    ['npm-syntax/package-lock.json', '"version": "4.1.0"', 'invalid JSON'],
    ['npm-shape/package-lock.json', '"version": 2.1,', 'unexpected structure at "packages" › "node_modules/ms" › "version"'],
    ['package-json/package.json', '"debug": 4', 'unexpected structure at "dependencies" › "debug"'],
    ['pnpm/pnpm-lock.yaml', "engines: {node: '>=10'}}", 'invalid YAML'],
    ['yarn-classic/yarn.lock', '  dependencies {', 'invalid yarn.lock'],
    ['yarn-berry/yarn.lock', '   resolution: "chalk@npm:4.1.0"', 'invalid yarn.lock'],
    ['bun/bun.lock', '"chalk@4.1.0" ""', 'invalid JSON'],
    ['requirements/requirements.txt', 'certifi>>', 'invalid version specifier'],
    ['poetry/poetry.lock', 'version = 2.31.0', 'invalid TOML'],
    ['uv/uv.lock', 'version = 3.6', 'unexpected structure at "package" › [3] › "version"'],
    ['pdm/pdm.lock', 'groups = "default"', 'unexpected structure at "package" › [0] › "groups"'],
    ['pipenv/Pipfile.lock', '"version": ==2.31.0', 'invalid JSON'],
    ['pyproject/pyproject.toml', '"idna=>3"', 'invalid version specifier'],
    ['cyclonedx/bom.cdx.json', '"purl": "npm/chalk@4.1.0"', 'not a valid package URL'],
    ['spdx/sbom.spdx.json', '"referenceLocator": 3.6', 'unexpected structure at "packages" › [4] › "externalRefs" › [1] › "referenceLocator"'],
  ])('%s', (path, needle, detail) => {
    const text = fixture(`malformed/${path}`);
    const file = `malformed/${path}`;
    const error = lockfileErrorOf(() => readInputText(text, file));
    const line = lineOf(text, needle);
    expect(error).toMatchObject({ name: 'LockfileError', file, line });
    expect(error.message.startsWith(`${file}:${line}: ${detail}`)).toBe(true);
    expect(error.message).not.toContain('\n');
  });

  it('refuses the binary bun.lockb and files it does not know', () => {
    expect(lockfileErrorOf(() => readInputText('\u0000\u0001', 'bun.lockb')).message).toMatch(/^bun\.lockb: the binary bun\.lockb cannot be read/);
    expect(lockfileErrorOf(() => readInputText('{}', 'data.json')).message).toMatch(/^data\.json: not a supported input/);
    expect(lockfileErrorOf(() => readInputText('', 'Gemfile.lock')).message).toMatch(/^Gemfile\.lock: not a supported input/);
  });

  it('quotes no file content beyond one short, sanitised value', () => {
    const hostile = `flask\n${'\u001b]8;;https://evil.example\u0007x'.repeat(40)}>>1\n`;
    const error = lockfileErrorOf(() => readInputText(hostile, 'requirements.txt'));
    expect(error.message).not.toContain('\u001b');
    expect(error.message.length).toBeLessThan(200);
  });
});

const SAMPLES: [string, string][] = [
  ['npm-v3/package-lock.json', 'package-lock.json'],
  ['npm-v1/package-lock.json', 'package-lock.json'],
  ['pnpm-v9/pnpm-lock.yaml', 'pnpm-lock.yaml'],
  ['pnpm-v5/pnpm-lock.yaml', 'pnpm-lock.yaml'],
  ['yarn-classic/yarn.lock', 'yarn.lock'],
  ['yarn-berry/yarn.lock', 'yarn.lock'],
  ['bun/bun.lock', 'bun.lock'],
  ['package-json/package.json', 'package.json'],
  ['python-requirements/requirements.txt', 'requirements.txt'],
  ['python-poetry/poetry.lock', 'poetry.lock'],
  ['python-uv/uv.lock', 'uv.lock'],
  ['python-pdm/pdm.lock', 'pdm.lock'],
  ['python-pipenv/Pipfile.lock', 'Pipfile.lock'],
  ['python-pyproject/pyproject.toml', 'pyproject.toml'],
  ['sbom-cyclonedx/bom.cdx.json', 'bom.cdx.json'],
  ['sbom-spdx/sbom.spdx.json', 'sbom.spdx.json'],
];

/** Cut, duplicate or overwrite a slice of a valid file. */
const mutation = (length: number) =>
  fc.record({
    at: fc.nat({ max: length }),
    cut: fc.nat({ max: 40 }),
    insert: fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('{', '}', '[', ']', '"', ':', ',', '\n', '  ', '\t', '#', '=', '@', '\\', '- ', '- x', '*', '&a', '<<: *a')),
  });

describe('readers throw nothing but LockfileError', () => {
  it.each(SAMPLES)('%s, mutated', (path, name) => {
    const text = fixture(path);
    fc.assert(
      fc.property(mutation(text.length), ({ at, cut, insert }) => {
        const mutated = text.slice(0, at) + insert + text.slice(at + cut);
        try {
          const result = readInputText(mutated, name);
          expect(Array.isArray(result.dependencies)).toBe(true);
        } catch (error) {
          expect(error).toBeInstanceOf(LockfileError);
          expect((error as LockfileError).file).toBe(name);
        }
      }),
      { numRuns: 120 },
    );
  });

  /** Characters that mean something to one format or another, and any other. */
  const unit = fc.oneof(
    fc.constantFrom('\n', '\r', '"', "'", '#', ':', ' ', '  ', '{', '}', '[', ']', '\\', '@', ',', '=', '-', '\t', '&a', '*a', '!', '|', 'a', '1', '.'),
    fc.string({ minLength: 1, maxLength: 1, unit: 'binary' }),
  );

  it.each(SAMPLES.map(([, name]) => name))('%s, arbitrary text', (name) => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200, unit }), (text) => {
        try {
          readInputText(text, name);
        } catch (error) {
          expect(error).toBeInstanceOf(LockfileError);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('turns absurd nesting into a LockfileError', () => {
    const deep = `{"lockfileVersion": 1, "dependencies": ${'{"a": {"version": "1.0.0", "dependencies": '.repeat(20000)}{}${'}}'.repeat(20000)}}`;
    expect(lockfileErrorOf(() => readInputText(deep, 'package-lock.json')).file).toBe('package-lock.json');
  });
});
