import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadNpmConfig, NpmConfigError } from '../../src/sources/npm/config.js';
import { readTreeFileSync } from '../../src/audit/tree-file.js';

const SECRET = 'SECRET-TOKEN-0123456789';

let dir: string;
let home: string;
let project: string;
let prefix: string;

function write(file: string, text: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

/** The layout every test uses: a HOME, a project (with package.json), a global prefix. */
function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { HOME: home, PREFIX: prefix, ...extra };
}

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'nerq-npmrc-'));
  home = path.join(dir, 'home');
  project = path.join(dir, 'project');
  prefix = path.join(dir, 'prefix');
  mkdirSync(home, { recursive: true });
  write(path.join(project, 'package.json'), '{"name":"p","version":"1.0.0"}');
  mkdirSync(prefix, { recursive: true });
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('registry precedence', () => {
  it("falls back to npm's built-in default registry (an https URL ending in a slash)", () => {
    const config = loadNpmConfig({ readFile: readTreeFileSync, env: env(), cwd: project });
    expect(config.registry).toMatch(/^https:\/\/[^/]+\/$/);
    expect(config.warnings).toEqual([]);
  });

  const layers = [
    ['global', () => write(path.join(prefix, 'etc', 'npmrc'), 'registry=http://global.test/\n')],
    ['user', () => write(path.join(home, '.npmrc'), 'registry=http://user.test/\n')],
    ['project', () => write(path.join(project, '.npmrc'), 'registry=http://project.test/\n')],
  ] as const;

  it.each([
    [1, 'http://global.test/'],
    [2, 'http://user.test/'],
    [3, 'http://project.test/'],
  ])('with the first %i file layer(s) written, the highest one wins: %s', (count, expected) => {
    for (const [, make] of layers.slice(0, count)) make();
    expect(loadNpmConfig({ readFile: readTreeFileSync, env: env(), cwd: project }).registry).toBe(expected);
  });

  it.each([
    [{ npm_config_registry: 'http://env.test' }, undefined, 'http://env.test/'],
    [{ NPM_CONFIG_REGISTRY: 'http://env-upper.test/' }, undefined, 'http://env-upper.test/'],
    [{ npm_config_registry: 'http://env.test/', NERQ_NPM_REGISTRY: 'http://nerq.test/' }, undefined, 'http://nerq.test/'],
    [{ NERQ_NPM_REGISTRY: 'http://nerq.test/' }, 'http://cli.test/', 'http://cli.test/'],
  ])('environment %j with --registry %s beats every file → %s', (vars, cliRegistry, expected) => {
    for (const [, make] of layers) make();
    const config = loadNpmConfig({ readFile: readTreeFileSync, env: env(vars), cwd: project, ...(cliRegistry ? { cliRegistry } : {}) });
    expect(config.registry).toBe(expected);
  });

  it('finds the project .npmrc from a subdirectory, as npm does', () => {
    write(path.join(project, '.npmrc'), 'registry=http://project.test/\n');
    const sub = path.join(project, 'src', 'deep');
    mkdirSync(sub, { recursive: true });
    expect(loadNpmConfig({ readFile: readTreeFileSync, env: env(), cwd: sub }).registry).toBe('http://project.test/');
  });

  it('reads the user file named by npm_config_userconfig and the global one by npm_config_globalconfig', () => {
    const user = write(path.join(dir, 'alt', 'user-npmrc'), '@u:registry=http://alt-user.test/\n');
    const global = write(path.join(dir, 'alt', 'global-npmrc'), '@g:registry=http://alt-global.test/\n');
    const config = loadNpmConfig({ readFile: readTreeFileSync,
      env: env({ npm_config_userconfig: user, npm_config_globalconfig: global }),
      cwd: project,
    });
    expect(config.registryFor('@u/x')).toBe('http://alt-user.test/');
    expect(config.registryFor('@g/x')).toBe('http://alt-global.test/');
  });

  it('does not let a project .npmrc choose which file is trusted as the user config', () => {
    const evil = write(path.join(project, 'evil-npmrc'), '//user.test/:_authToken=stolen\n');
    write(path.join(project, '.npmrc'), `userconfig=${evil}\n`);
    write(path.join(home, '.npmrc'), 'registry=https://user.test/\n');
    const config = loadNpmConfig({ readFile: readTreeFileSync, env: env(), cwd: project });
    expect(config.registry).toBe('https://user.test/');
    expect(config.authHeaderFor('https://user.test/pkg')).toBeUndefined();
  });

  it('substitutes ${VAR} from the given environment (not process.env)', () => {
    write(path.join(home, '.npmrc'), 'registry=${NERQ_TEST_REGISTRY_URL}\n');
    const config = loadNpmConfig({ readFile: readTreeFileSync, env: env({ NERQ_TEST_REGISTRY_URL: 'http://from-env.test/r/' }), cwd: project });
    expect(config.registry).toBe('http://from-env.test/r/');
    expect(process.env.NERQ_TEST_REGISTRY_URL).toBeUndefined();
  });

  it('rejects a registry that is not an http(s) URL with a one-line error', () => {
    write(path.join(home, '.npmrc'), 'registry=file:///etc/\n');
    expect(() => loadNpmConfig({ readFile: readTreeFileSync, env: env(), cwd: project })).toThrow(NpmConfigError);
    expect(() => loadNpmConfig({ readFile: readTreeFileSync, env: env(), cwd: project, cliRegistry: 'nope' })).toThrow(/--registry/);
  });
});

describe('scoped registries', () => {
  it.each([
    ['@acme/widget', 'http://127.0.0.1:5/acme/'],
    ['@other/widget', 'https://default.test/'],
    ['widget', 'https://default.test/'],
    ['@acme', 'https://default.test/'],
  ])('registryFor(%j) → %s', (name, expected) => {
    write(path.join(home, '.npmrc'), 'registry=https://default.test\n@acme:registry=http://127.0.0.1:5/acme\n');
    expect(loadNpmConfig({ readFile: readTreeFileSync, env: env(), cwd: project }).registryFor(name)).toBe(expected);
  });

  it('takes a scope registry from the environment too', () => {
    const config = loadNpmConfig({ readFile: readTreeFileSync, env: env({ 'npm_config_@acme:registry': 'http://env-acme.test/' }), cwd: project });
    expect(config.registryFor('@acme/x')).toBe('http://env-acme.test/');
  });
});

describe('credentials', () => {
  function configWith(npmrc: string, vars: Record<string, string> = {}) {
    write(path.join(home, '.npmrc'), npmrc);
    return loadNpmConfig({ readFile: readTreeFileSync, env: env(vars), cwd: project });
  }

  it('sends a token only to its own host, port and path', () => {
    const config = configWith(
      ['@acme:registry=http://127.0.0.1:5/acme/', '//127.0.0.1:5/acme/:_authToken=${ACME_TOKEN}', ''].join('\n'),
      { ACME_TOKEN: SECRET },
    );
    expect(config.authHeaderFor('http://127.0.0.1:5/acme/@acme%2fwidget')).toBe(`Bearer ${SECRET}`);
    expect(config.authHeaderFor('http://127.0.0.1:5/acme/@acme/widget/-/widget-1.0.0.tgz')).toBe(`Bearer ${SECRET}`);
    for (const other of [
      'http://127.0.0.1:6/acme/x', // other port
      'http://localhost:5/acme/x', // other host name
      'http://127.0.0.1:5/other/x', // other path
      'http://127.0.0.1:5/acmeevil/x', // not a path-segment match
      'http://127.0.0.1/acme/x', // default port
      'not a url',
    ]) {
      expect(config.authHeaderFor(other), other).toBeUndefined();
    }
  });

  it('uses the longest matching path', () => {
    const config = configWith('//reg.test/:_authToken=root\n//reg.test/deep/:_authToken=deep\n');
    expect(config.authHeaderFor('https://reg.test/deep/pkg')).toBe('Bearer deep');
    expect(config.authHeaderFor('https://reg.test/pkg')).toBe('Bearer root');
    expect(config.authHeaderFor('https://reg.test/deeper/pkg')).toBe('Bearer root');
    expect(config.authHeaderFor('https://REG.test/deep/pkg')).toBe('Bearer deep');
  });

  it.each([
    ['//reg.test/:_auth=dXNlcjpwYXNz', 'Basic dXNlcjpwYXNz'],
    [
      `//reg.test/:username=alice\n//reg.test/:_password=${Buffer.from('pa:ss').toString('base64')}`,
      `Basic ${Buffer.from('alice:pa:ss').toString('base64')}`,
    ],
    ['//reg.test/:_authToken=tok\n//reg.test/:_auth=dXNlcjpwYXNz', 'Bearer tok'],
    ['//reg.test/:username=alice', undefined],
  ])('%s → %s', (npmrc, expected) => {
    expect(configWith(`${npmrc}\n`).authHeaderFor('https://reg.test/pkg')).toBe(expected);
  });

  it('never sends credentials over plain http to a host whose registry is https', () => {
    const config = configWith('registry=https://reg.test/\n//reg.test/:_authToken=tok\n');
    expect(config.authHeaderFor('https://reg.test/pkg')).toBe('Bearer tok');
    expect(config.authHeaderFor('http://reg.test/pkg')).toBeUndefined();
  });

  it('reads credentials from npm_config_ environment variables', () => {
    const config = loadNpmConfig({ readFile: readTreeFileSync,
      env: env({ 'npm_config_//reg.test/:_authToken': 'from-env' }),
      cwd: project,
    });
    expect(config.authHeaderFor('https://reg.test/x')).toBe('Bearer from-env');
  });

  it('keeps the file when a ${VAR} is unset, ignores only the credential, and says so', () => {
    const config = configWith('registry=http://private.test/\n//private.test/:_authToken=${NPM_TOKEN}\n');
    expect(config.registry).toBe('http://private.test/');
    expect(config.authHeaderFor('http://private.test/pkg')).toBeUndefined();
    expect(config.warnings.join('\n')).toContain('${NPM_TOKEN} is not set');
  });

  it('never shows a token in toString, JSON, inspect or warnings', () => {
    const config = configWith(`registry=https://reg.test/\n//reg.test/:_authToken=${SECRET}\n`);
    expect(config.authHeaderFor('https://reg.test/x')).toBe(`Bearer ${SECRET}`);
    for (const shown of [String(config), JSON.stringify(config), inspect(config, { depth: 10, showHidden: true }), config.warnings.join()]) {
      expect(shown).not.toContain(SECRET);
    }
    expect(JSON.stringify(config)).toContain('//reg.test/');
  });

  it('never shows a token when a file cannot be parsed', () => {
    const config = configWith(`registry=https://reg.test/\n//reg.test/:_authToken="${SECRET}\\q"\n`);
    expect(config.warnings).toHaveLength(1);
    expect(config.warnings[0]).not.toContain(SECRET);
  });

  it('never shows a token when the environment cannot be parsed', () => {
    let error: unknown;
    try {
      loadNpmConfig({ readFile: readTreeFileSync, env: env({ 'npm_config_//reg.test/:_authToken': `"${SECRET}\\q"` }), cwd: project });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(NpmConfigError);
    expect(String(error)).not.toContain(SECRET);
  });
});

describe('TLS and proxy settings', () => {
  it('reads cafile contents, strict-ssl and proxies', () => {
    const cert = (body: string) => `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`;
    const cafile = write(path.join(dir, 'ca.pem'), cert('AAAA') + cert('BBBB'));
    write(
      path.join(home, '.npmrc'),
      [
        `cafile=${cafile}`,
        'strict-ssl=false',
        'proxy=http://proxy.test:3128/',
        'https-proxy=http://secure-proxy.test:3129/',
        'noproxy=localhost,.internal.test',
        '',
      ].join('\n'),
    );
    const config = loadNpmConfig({ readFile: readTreeFileSync, env: env(), cwd: project });
    expect(config.ca).toHaveLength(2);
    expect(config.ca?.[1]).toContain('BBBB');
    expect(config.strictSsl).toBe(false);
    expect(config.proxy).toBe('http://proxy.test:3128/');
    expect(config.httpsProxy).toBe('http://secure-proxy.test:3129/');
    expect(config.noProxy).toBe('localhost,.internal.test');
  });

  it('has safe defaults', () => {
    const config = loadNpmConfig({ readFile: readTreeFileSync, env: env(), cwd: project });
    expect(config.ca).toBeUndefined();
    expect(config.strictSsl).toBe(true);
    expect(config.proxy).toBeUndefined();
    expect(config.httpsProxy).toBeUndefined();
  });

  it('warns about a cafile that does not exist', () => {
    write(path.join(home, '.npmrc'), `cafile=${path.join(dir, 'missing.pem')}\n`);
    const config = loadNpmConfig({ readFile: readTreeFileSync, env: env(), cwd: project });
    expect(config.ca).toBeUndefined();
    expect(config.warnings.join()).toContain('does not exist');
  });
});

describe('files that are links or not regular files', () => {
  it("the user's own files through links (a dotfile manager's) are read as usual", () => {
    const cert = `-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n`;
    const cafile = write(path.join(dir, 'dotfiles', 'ca.pem'), cert);
    symlinkSync(cafile, path.join(dir, 'ca-link.pem'));
    write(path.join(dir, 'dotfiles', 'npmrc'), `registry=http://linked.test/\ncafile=${path.join(dir, 'ca-link.pem')}\n`);
    symlinkSync(path.join(dir, 'dotfiles', 'npmrc'), path.join(home, '.npmrc'));
    const config = loadNpmConfig({ readFile: readTreeFileSync, env: env(), cwd: project });
    expect(config.registry).toBe('http://linked.test/');
    expect(config.ca).toHaveLength(1);
    expect(config.warnings).toEqual([]);
  });

  // A device stands in for a FIFO here (a FIFO read in-process would block this test for ever
  // should the blocking read come back; test/hostile/symlinks.test.ts runs FIFOs in a child).
  it.for(['user', 'global', 'cafile'] as const)('a device as the %s file: skipped with a warning naming it', (which) => {
    const device = path.join(dir, 'device');
    symlinkSync('/dev/null', device);
    if (which === 'user') symlinkSync(device, path.join(home, '.npmrc'));
    if (which === 'cafile') write(path.join(home, '.npmrc'), `cafile=${device}\n`);
    const config = loadNpmConfig({ readFile: readTreeFileSync, env: env(which === 'global' ? { npm_config_globalconfig: device } : {}), cwd: project });
    expect(config.ca).toBeUndefined();
    expect(config.warnings).toHaveLength(1);
    expect(config.warnings[0]).toContain(which === 'user' ? path.join(home, '.npmrc') : device);
  });

  it('an untrusted .npmrc linking to a file inside the tree is read; one linking out, or a directory, is not', () => {
    write(path.join(project, 'config', 'npmrc'), 'registry=http://inside.test/\n');
    symlinkSync(path.join('config', 'npmrc'), path.join(project, '.npmrc'));
    const inside = loadNpmConfig({ readFile: readTreeFileSync, env: env(), cwd: project, untrustedDir: project, trustProjectRegistry: true });
    expect(inside.registry).toBe('http://inside.test/');

    rmSync(path.join(project, '.npmrc'));
    write(path.join(dir, 'outside-npmrc'), 'registry=http://outside.test/\n');
    symlinkSync(path.join(dir, 'outside-npmrc'), path.join(project, '.npmrc'));
    const out = loadNpmConfig({ readFile: readTreeFileSync, env: env(), cwd: project, untrustedDir: project, trustProjectRegistry: true });
    expect(out.registry).not.toBe('http://outside.test/');
    expect(out.warnings).toHaveLength(1);
    expect(out.warnings.join()).not.toContain('outside.test');

    rmSync(path.join(project, '.npmrc'));
    mkdirSync(path.join(project, '.npmrc'));
    expect(loadNpmConfig({ readFile: readTreeFileSync, env: env(), cwd: project, untrustedDir: project }).warnings).toHaveLength(1);
  });
});

describe('isolation', () => {
  it('leaves process.env as it was', () => {
    const before = process.env;
    const snapshot = { ...process.env };
    loadNpmConfig({ readFile: readTreeFileSync, env: env({ SOME_VAR: 'x' }), cwd: project });
    expect(process.env).toBe(before);
    expect({ ...process.env }).toEqual(snapshot);
  });
});

describe('an audited (untrusted) project .npmrc', () => {
  beforeEach(() => {
    write(path.join(home, '.npmrc'), 'registry=http://user.test/\n');
    write(
      path.join(project, '.npmrc'),
      `registry=http://evil.test/\n@corp:registry=http://corp.test/\n//evil.test/:_authToken=${SECRET}\n//user.test/:_authToken=${SECRET}\n`,
    );
  });

  it('is not followed by default: the user registry is used and a warning names the ignored settings', () => {
    const config = loadNpmConfig({ readFile: readTreeFileSync, env: env(), cwd: project, untrustedDir: project });
    expect(config.registry).toBe('http://user.test/');
    expect(config.registryFor('@corp/x')).toBe('http://user.test/');
    expect(config.warnings.join('\n')).toContain('registry, @corp:registry: ignored (pass --trust-project-npmrc');
    expect(config.authHeaderFor('http://user.test/x')).toBeUndefined();
    expect(config.authHeaderFor('http://evil.test/x')).toBeUndefined();
  });

  it('the registries it sets are kept apart, per package, for the lockfile check; none with trust or without the file', () => {
    const config = loadNpmConfig({ readFile: readTreeFileSync, env: env(), cwd: project, untrustedDir: project });
    expect(config.ignoredProjectRegistry?.('left-pad')).toBe('http://evil.test/');
    expect(config.ignoredProjectRegistry?.('@corp/x')).toBe('http://corp.test/');
    expect(config.ignoredProjectRegistry?.('@other/x')).toBe('http://evil.test/');
    const trusted = loadNpmConfig({ readFile: readTreeFileSync, env: env(), cwd: project, untrustedDir: project, trustProjectRegistry: true });
    expect(trusted.ignoredProjectRegistry?.('left-pad')).toBeNull();
    rmSync(path.join(project, '.npmrc'));
    expect(loadNpmConfig({ readFile: readTreeFileSync, env: env(), cwd: project, untrustedDir: project }).ignoredProjectRegistry?.('left-pad')).toBeNull();
  });

  it("npm's replace-registry-host is kept beside the ignored registries: the project's, else the user's, never a registry key", () => {
    const load = (): ReturnType<typeof loadNpmConfig> => loadNpmConfig({ readFile: readTreeFileSync, env: env(), cwd: project, untrustedDir: project });
    expect(load().replaceRegistryHost?.()).toBeNull();
    write(path.join(home, '.npmrc'), 'registry=http://user.test/\nreplace-registry-host=Always\n');
    expect(load().replaceRegistryHost?.()).toBe('always');
    write(path.join(project, '.npmrc'), 'registry=http://evil.test/\nreplace-registry-host=corp.test\n');
    const config = load();
    expect(config.replaceRegistryHost?.()).toBe('corp.test');
    expect(config.ignoredProjectRegistry?.('left-pad')).toBe('http://evil.test/');
    expect(config.ignoredProjectRegistry?.('@x/replace-registry-host')).toBe('http://evil.test/');
    // Nothing ignored (no project registry): the user's setting is not reported either.
    write(path.join(project, '.npmrc'), 'replace-registry-host=corp.test\n');
    expect(load().replaceRegistryHost?.()).toBeNull();
  });

  it('with trust, its registries are followed but its credentials are still never read', () => {
    const config = loadNpmConfig({ readFile: readTreeFileSync, env: env(), cwd: project, untrustedDir: project, trustProjectRegistry: true });
    expect(config.registry).toBe('http://evil.test/');
    expect(config.registryFor('@corp/x')).toBe('http://corp.test/');
    expect(config.authHeaderFor('http://evil.test/x')).toBeUndefined();
    expect(config.warnings.join('\n')).not.toContain(SECRET);
  });

  it('a project .npmrc outside the untrusted directory is configuration as usual', () => {
    const other = path.join(dir, 'elsewhere');
    mkdirSync(other, { recursive: true });
    expect(loadNpmConfig({ readFile: readTreeFileSync, env: env(), cwd: project, untrustedDir: other }).registry).toBe('http://evil.test/');
  });
});
