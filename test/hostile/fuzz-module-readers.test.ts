/**
 * Hostile world: property-based fuzzing of the module readers a repository target's dependency
 * set uses (src/lockfiles/go-mod.ts, src/lockfiles/cargo-lock.ts), as fuzz-lockfiles.test.ts
 * does for the audit's readers: arbitrary text in the characters go.mod cares about, byte-level
 * edits of the recorded real files (fixtures/github-repos, fixtures/lockfiles/real), and
 * structure-aware edits of a Cargo.lock (parsed, one value replaced, removed or repeated, written
 * back as TOML) with its Cargo.toml edited the same way.
 *
 * The contract: well-formed module pins (a name, an exact version of the ecosystem's shape, a
 * real line of the file), or — for a Cargo.lock that is not TOML or not a lock — a one-line
 * LockfileError naming the file; never any other throw, never a made-up version.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { parse as parseToml, stringify as stringifyToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { LockfileError } from '../../src/audit/types.js';
import { readCargoLock } from '../../src/lockfiles/cargo-lock.js';
import { readGoMod } from '../../src/lockfiles/go-mod.js';
import type { ModuleInput } from '../../src/lockfiles/module-types.js';
import { check, FUZZ_TEST_TIMEOUT_MS, mutated, ONE_LINE, trimmed } from './support/fuzz-kit.js';

const text = (path: string) => readFileSync(new URL(`../../fixtures/${path}`, import.meta.url), 'utf8');
const GO_MODS = [text('http/github/repos/github/github-mcp-server/contents/go.mod'), text('lockfiles/real/mark3labs__mcp-go/otel/go.mod')];
const CARGO_LOCK = text('http/github/repos/rust-mcp-stack/rust-mcp-filesystem/contents/Cargo.lock');
const CARGO_TOML = text('http/github/repos/rust-mcp-stack/rust-mcp-filesystem/contents/Cargo.toml');
const RUNS = 2_000;

const GO_VERSION = /^v\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
const CRATE_VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/** Every pin well-formed: ecosystem, a name, an exact version of its shape, a line of the file. */
function expectWellFormed(input: ModuleInput, source: string, ecosystem: 'go' | 'cargo'): void {
  const lines = source.split(/\r\n|\n|\r/).length;
  for (const d of input.dependencies) {
    expect(d.ecosystem).toBe(ecosystem);
    expect(d.name.length).toBeGreaterThan(0);
    expect(d.version).toMatch(ecosystem === 'go' ? GO_VERSION : CRATE_VERSION);
    if (d.line !== null) {
      expect(d.line).toBeGreaterThanOrEqual(1);
      expect(d.line).toBeLessThanOrEqual(lines);
    }
  }
  for (const line of [...input.notes, ...input.unvouched]) expect(line).toMatch(ONE_LINE);
}

/** A byte-level edit: a slice of the text removed, or replaced by a hostile snippet. */
const edited = (source: string) =>
  fc
    .tuple(fc.nat({ max: source.length }), fc.nat({ max: 200 }), fc.constantFrom('', '(', ')', '"', '`', '=>', '// indirect', '\n', '\u0000', 'v', 'v1.2.3', ' ', '[[package]]', 'source = "git+x"'))
    .map(([at, cut, insert]) => source.slice(0, at) + insert + source.slice(at + cut));

const goToken = fc.constantFrom('module', 'require', 'replace', 'exclude', 'retract', 'go', 'toolchain', 'godebug', '(', ')', '=>', '//', '// indirect', '"', '`', 'v1.2.3', 'v0.0.0-20230722043721-ed46e5a46466', 'v2.0.0+incompatible', 'example.com/a', './x', '../', '/abs', 'C:\\x', ' ', '\t', '\n', '\r\n', '\u2028', '\u00a0', '\u0000', 'x');

describe('go.mod reader under fuzzing', () => {
  it(
    'arbitrary go.mod-ish text and edits of real go.mod files: well-formed pins, never a throw',
    async ({ task }) => {
      const input = fc.oneof(fc.array(goToken, { maxLength: 60 }).map((t) => t.join('')), ...GO_MODS.map(edited));
      await check(
        task,
        fc.property(input, (source) => {
          expectWellFormed(readGoMod(source, 'go.mod'), source, 'go');
        }),
        RUNS,
      );
    },
    FUZZ_TEST_TIMEOUT_MS,
  );
});

describe('Cargo.lock reader under fuzzing', () => {
  const lockDoc = trimmed(parseToml(CARGO_LOCK), 6);
  const tomlDoc = parseToml(CARGO_TOML);
  /** A parsed document written back as TOML (what TOML cannot write stays the original). */
  const asToml = (doc: unknown, fallback: string): string => {
    try {
      return stringifyToml(doc as Record<string, unknown>);
    } catch {
      return fallback;
    }
  };
  it(
    'structure-aware edits of the real lock and manifest, and byte edits: well-formed pins or a one-line LockfileError',
    async ({ task }) => {
      const lock = fc.oneof(mutated(lockDoc).map((d) => asToml(d, CARGO_LOCK)), edited(CARGO_LOCK.slice(0, 4000)));
      const manifest = mutated(tomlDoc).map((d) => asToml(d, CARGO_TOML));
      await check(
        task,
        fc.property(lock, manifest, (source, toml) => {
          try {
            expectWellFormed(readCargoLock(source, 'Cargo.lock', { 'Cargo.toml': toml }), source, 'cargo');
          } catch (error) {
            expect(error).toBeInstanceOf(LockfileError);
            expect((error as Error).message).toMatch(ONE_LINE);
            expect((error as Error).message.startsWith('Cargo.lock')).toBe(true);
          }
        }),
        RUNS,
      );
    },
    FUZZ_TEST_TIMEOUT_MS,
  );
});
