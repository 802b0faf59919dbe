import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadYarnrcParser, loadYarnRegistries, YARNRC_MAX_BYTES, type YarnRegistries } from '../../src/audit/yarnrc.js';

const SECRET = 'SECRET-YARN-TOKEN-0123456789';
const IDENT = 'SECRET-IDENT-abcdef';

let dir: string;
let home: string;
let checkout: string;
let project: string;

function write(file: string, text: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'nerq-yarnrc-'));
  home = path.join(dir, 'home');
  checkout = path.join(dir, 'checkout');
  project = path.join(checkout, 'packages', 'app');
  mkdirSync(home, { recursive: true });
  mkdirSync(path.join(checkout, '.git'), { recursive: true });
  mkdirSync(project, { recursive: true });
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function load(options: { env?: Record<string, string>; trust?: boolean; audit?: boolean } = {}): YarnRegistries {
  return loadYarnRegistries({
    env: { HOME: home, ...options.env },
    cwd: project,
    ...(options.audit === false ? {} : { untrustedDir: checkout }),
    trustProject: options.trust === true,
  });
}

const codes = (y: YarnRegistries) => y.warnings.map((w) => w.code);
const everything = (y: YarnRegistries) => JSON.stringify(y) + inspect(y) + String(y) + y.warnings.map((w) => w.message).join('\n') + JSON.stringify(y.registriesFor('@corp/x'));

// An audit's runtime loads the parser first (src/app/runtime.ts, loadAuditConfigParsers).
beforeAll(loadYarnrcParser);

describe("the user's ~/.yarnrc.yml", () => {
  it('gives the default and scope registries, normalised, each for the packages yarn fetches from it', () => {
    write(path.join(home, '.yarnrc.yml'), ['npmRegistryServer: "https://mirror.example.test/npm"', 'npmScopes:', '  corp:', '    npmRegistryServer: "https://corp.example.test"', `    npmAuthToken: ${SECRET}`, ''].join('\n'));
    const yarn = load();
    expect(yarn.warnings).toEqual([]);
    expect(yarn.registriesFor('@corp/lib')).toEqual(['https://corp.example.test/', 'https://mirror.example.test/npm/']);
    expect(yarn.registriesFor('@CORP/lib')).toEqual(['https://corp.example.test/', 'https://mirror.example.test/npm/']);
    expect(yarn.registriesFor('@other/lib')).toEqual(['https://mirror.example.test/npm/']);
    expect(yarn.registriesFor('left-pad')).toEqual(['https://mirror.example.test/npm/']);
    expect(everything(yarn)).not.toContain(SECRET);
  });

  it('expands ${VAR}, ${VAR:-default} and ${VAR-default} from the environment, as yarn does', () => {
    write(path.join(home, '.yarnrc.yml'), ['npmRegistryServer: "https://${MIRROR_HOST}/npm"', 'npmScopes:', '  a:', '    npmRegistryServer: "${A_URL:-https://a.example.test}"', '  b:', '    npmRegistryServer: "${B_URL-https://b.example.test}"', ''].join('\n'));
    const yarn = load({ env: { MIRROR_HOST: 'mirror.example.test', B_URL: 'https://b2.example.test' } });
    expect(yarn.warnings).toEqual([]);
    expect(yarn.registriesFor('@a/x')[0]).toBe('https://a.example.test/');
    expect(yarn.registriesFor('@b/x')[0]).toBe('https://b2.example.test/');
    expect(yarn.registriesFor('x')).toEqual(['https://mirror.example.test/npm/']);
  });

  it('a variable that is unset, without a default: that value ignored with a warning naming the variable', () => {
    write(path.join(home, '.yarnrc.yml'), 'npmRegistryServer: "https://${NOPE}/npm"\n');
    const yarn = load();
    expect(yarn.registriesFor('x')).toEqual([]);
    expect(codes(yarn)).toEqual(['yarnrc-invalid']);
    expect(yarn.warnings[0]!.message).toContain('${NOPE}');
  });

  it('YARN_NPM_REGISTRY_SERVER counts as a default registry', () => {
    expect(load({ env: { YARN_NPM_REGISTRY_SERVER: 'https://env.example.test' } }).registriesFor('x')).toEqual(['https://env.example.test/']);
  });

  it('a registry with credentials in its URL or not http(s): ignored, the value never quoted', () => {
    write(path.join(home, '.yarnrc.yml'), [`npmRegistryServer: "https://user:${SECRET}@mirror.example.test/"`, 'npmScopes:', '  corp:', `    npmRegistryServer: "file:///${SECRET}"`, ''].join('\n'));
    const yarn = load();
    expect(yarn.registriesFor('@corp/x')).toEqual([]);
    expect(codes(yarn)).toEqual(['yarnrc-invalid', 'yarnrc-invalid']);
    expect(everything(yarn)).not.toContain(SECRET);
  });

  it('malformed YAML, a list, or an oversized file: one yarnrc-invalid warning, no registry, no quoted text', () => {
    for (const text of [`npmAuthToken: "${SECRET}\nnpmRegistryServer: [`, `- ${SECRET}\n`, `npmAuthIdent: ${IDENT}\n${'#'.repeat(YARNRC_MAX_BYTES)}\n`]) {
      write(path.join(home, '.yarnrc.yml'), text);
      const yarn = load();
      expect(codes(yarn)).toEqual(['yarnrc-invalid']);
      expect(yarn.registriesFor('x')).toEqual([]);
      expect(everything(yarn)).not.toContain(SECRET);
      expect(everything(yarn)).not.toContain(IDENT);
    }
  });

  it('an alias bomb is refused, not expanded', () => {
    const lines = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 10; i++) lines.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10).fill(`*${String.fromCharCode(96 + i)}`).join(',')}]`);
    write(path.join(home, '.yarnrc.yml'), `${lines.join('\n')}\nnpmRegistryServer: "https://mirror.example.test"\n`);
    expect(codes(load())).toEqual(['yarnrc-invalid']);
  });

  it('no file, an empty file, a file without registries: nothing, no warning', () => {
    expect(load().warnings).toEqual([]);
    write(path.join(home, '.yarnrc.yml'), '');
    expect(load().warnings).toEqual([]);
    write(path.join(home, '.yarnrc.yml'), `nodeLinker: node-modules\nnpmAuthToken: ${SECRET}\n`);
    const yarn = load();
    expect(yarn.warnings).toEqual([]);
    expect(yarn.registriesFor('x')).toEqual([]);
  });
});

describe("the audited project's .yarnrc.yml (untrusted)", () => {
  const projectRc = ['npmRegistryServer: "https://mirror.example.test"', 'npmScopes:', '  corp:', '    npmRegistryServer: "https://corp.example.test"', `    npmAuthToken: ${SECRET}`, ''].join('\n');

  it('without --trust-project-npmrc: not followed, a yarnrc-ignored warning naming the keys (in the directory and in a parent inside the checkout)', () => {
    write(path.join(project, '.yarnrc.yml'), projectRc);
    write(path.join(checkout, '.yarnrc.yml'), 'npmRegistryServer: "https://root.example.test"\n');
    const yarn = load();
    expect(yarn.registriesFor('@corp/x')).toEqual([]);
    expect(codes(yarn)).toEqual(['yarnrc-ignored', 'yarnrc-ignored']);
    expect(yarn.warnings[0]!.message).toContain('packages/app/.yarnrc.yml sets npmRegistryServer, npmScopes.corp.npmRegistryServer: ignored (pass --trust-project-npmrc');
    expect(yarn.warnings[1]!.message).toContain("the audited project's .yarnrc.yml sets npmRegistryServer: ignored");
    expect(everything(yarn)).not.toContain(SECRET);
  });

  it('with --trust-project-npmrc: its registries are followed, with the user file\'s', () => {
    write(path.join(project, '.yarnrc.yml'), projectRc);
    write(path.join(checkout, '.yarnrc.yml'), 'npmRegistryServer: "https://root.example.test"\n');
    write(path.join(home, '.yarnrc.yml'), 'npmRegistryServer: "https://user.example.test"\n');
    const yarn = load({ trust: true });
    expect(yarn.warnings).toEqual([]);
    expect(yarn.registriesFor('@corp/x').sort()).toEqual(['https://corp.example.test/', 'https://mirror.example.test/', 'https://root.example.test/', 'https://user.example.test/']);
    expect(everything(yarn)).not.toContain(SECRET);
  });

  it('never expands a variable in the project file (it would read this machine\'s environment)', () => {
    write(path.join(project, '.yarnrc.yml'), 'npmRegistryServer: "https://${LEAK}.example.test"\n');
    const yarn = load({ trust: true, env: { LEAK: 'machine-secret' } });
    expect(yarn.registriesFor('x')).toEqual([]);
    expect(codes(yarn)).toEqual(['yarnrc-invalid']);
    expect(everything(yarn)).not.toContain('machine-secret');
  });

  it('a .yarnrc.yml linking outside the checkout is not read', () => {
    const outside = write(path.join(dir, 'elsewhere.yml'), 'npmRegistryServer: "https://outside.example.test"\n');
    symlinkSync(outside, path.join(project, '.yarnrc.yml'));
    const yarn = load({ trust: true });
    expect(yarn.registriesFor('x')).toEqual([]);
    expect(codes(yarn)).toEqual(['yarnrc-invalid']);
  });

  it('a malformed project file is a warning, not a failure', () => {
    write(path.join(project, '.yarnrc.yml'), `npmScopes: {corp: [${SECRET}\n`);
    const yarn = load({ trust: true });
    expect(codes(yarn)).toEqual(['yarnrc-invalid']);
    expect(everything(yarn)).not.toContain(SECRET);
  });

  it('a scope name that is not one is skipped', () => {
    write(path.join(project, '.yarnrc.yml'), 'npmScopes:\n  "bad\\nname":\n    npmRegistryServer: "https://x.example.test"\n  "@ok":\n    npmRegistryServer: "https://ok.example.test"\n');
    const yarn = load({ trust: true });
    expect(yarn.warnings).toEqual([]);
    expect(yarn.registriesFor('@ok/x')).toEqual(['https://ok.example.test/']);
  });

  it('outside an audit (no untrusted directory), no project file is read', () => {
    write(path.join(project, '.yarnrc.yml'), projectRc);
    const yarn = load({ audit: false, trust: true });
    expect(yarn.registriesFor('@corp/x')).toEqual([]);
    expect(yarn.warnings).toEqual([]);
  });
});
