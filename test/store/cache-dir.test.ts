import { describe, expect, it } from 'vitest';
import { cacheDir } from '../../src/store/cache-dir.js';

describe('cacheDir', () => {
  const cases: Array<{ name: string; env: NodeJS.ProcessEnv; platform: NodeJS.Platform; want: string }> = [
    { name: 'NERQ_CACHE_DIR wins', env: { NERQ_CACHE_DIR: '/x/y', HOME: '/home/u' }, platform: 'linux', want: '/x/y' },
    { name: 'linux XDG', env: { XDG_CACHE_HOME: '/xdg', HOME: '/home/u' }, platform: 'linux', want: '/xdg/nerq' },
    { name: 'linux relative XDG ignored', env: { XDG_CACHE_HOME: 'rel', HOME: '/home/u' }, platform: 'linux', want: '/home/u/.cache/nerq' },
    { name: 'linux default', env: { HOME: '/home/u' }, platform: 'linux', want: '/home/u/.cache/nerq' },
    { name: 'freebsd like linux', env: { HOME: '/home/u' }, platform: 'freebsd', want: '/home/u/.cache/nerq' },
    { name: 'macOS', env: { HOME: '/Users/u', XDG_CACHE_HOME: '/xdg' }, platform: 'darwin', want: '/Users/u/Library/Caches/nerq' },
    { name: 'windows', env: { LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' }, platform: 'win32', want: 'C:\\Users\\u\\AppData\\Local\\nerq\\Cache' },
    { name: 'windows without LOCALAPPDATA', env: { USERPROFILE: 'C:\\Users\\u' }, platform: 'win32', want: 'C:\\Users\\u\\AppData\\Local\\nerq\\Cache' },
  ];
  it.each(cases)('$name', ({ env, platform, want }) => {
    expect(cacheDir(env, platform)).toBe(want);
  });
});
