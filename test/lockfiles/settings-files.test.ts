import { describe, expect, it } from 'vitest';
import { readBunLock, readCycloneDx, readPackageJson, readPackageLock, readPnpmLock, readYarnLock, settingsFilesOf } from '../../src/lockfiles/index.js';

// The settings files beside an input that its install consults: the audit reads those and no
// others (src/audit/detect.ts), and names each one it could not read.
describe('settingsFilesOf', () => {
  it.each([
    ['package-lock.json', readPackageLock, '{}', ['.npmrc']],
    ['pnpm-lock.yaml', readPnpmLock, "lockfileVersion: '9.0'\n", ['pnpm-workspace.yaml', '.npmrc']],
    ['yarn.lock (v1)', readYarnLock, '# yarn lockfile v1\n', ['.yarnrc.yml', '.yarnrc']],
    ['yarn.lock (berry)', readYarnLock, '__metadata:\n  version: 8\n', ['.yarnrc.yml']],
    ['package.json', readPackageJson, '{}', ['pnpm-workspace.yaml', '.npmrc', '.yarnrc.yml', '.yarnrc']],
    ['bun.lock', readBunLock, '{}', []],
    ['a CycloneDX SBOM', readCycloneDx, '{}', []],
  ])('%s consults %j', (_label, reader, text, expected) => {
    expect(settingsFilesOf(reader, text)).toEqual(expected);
  });
});
