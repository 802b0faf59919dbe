/**
 * Where nerq keeps its store: the platform's per-user cache directory, or `NERQ_CACHE_DIR`.
 * Linux/BSD: `$XDG_CACHE_HOME/nerq` or `~/.cache/nerq`; macOS: `~/Library/Caches/nerq`;
 * Windows: `%LOCALAPPDATA%\nerq\Cache`.
 */
import os from 'node:os';
import path from 'node:path';

/** The cache directory for this environment and platform (pure apart from the home-dir fallback). */
export function cacheDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  const override = env.NERQ_CACHE_DIR;
  if (override) return override;
  if (platform === 'win32') {
    const local = env.LOCALAPPDATA || path.win32.join(env.USERPROFILE || os.homedir(), 'AppData', 'Local');
    return path.win32.join(local, 'nerq', 'Cache');
  }
  const home = env.HOME || os.homedir();
  if (platform === 'darwin') return path.posix.join(home, 'Library', 'Caches', 'nerq');
  // XDG says a relative value is invalid and must be ignored.
  const xdg = env.XDG_CACHE_HOME;
  if (xdg && path.posix.isAbsolute(xdg)) return path.posix.join(xdg, 'nerq');
  return path.posix.join(home, '.cache', 'nerq');
}
