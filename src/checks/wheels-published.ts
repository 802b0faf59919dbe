/**
 * wheels-published: whether the resolved PyPI release ships a wheel. An sdist-only release is
 * built on the installing machine: pip runs its build backend (setup.py or the PEP 517 hooks),
 * which is arbitrary code from the package at install time — PyPI's counterpart of npm install
 * scripts.
 */
import type { EvidenceValue } from './define.js';
import { defineCheck } from './define.js';
import { readBuildScript } from './lib/python-code.js';

/** The same score npm's install-scripts gives to install scripts that are not a plain native build. */
export const SDIST_ONLY_SCORE = 30;

export default defineCheck({
  id: 'wheels-published',
  dimension: 'security',
  weight: 2,
  needs: ['pypi'],
  title: 'Wheels published',
  description:
    'Reads the resolved release\'s files on PyPI: at least one wheel scores 100 (installing a wheel runs no build code; the `.pth` startup hooks a wheel may install are startup-hooks\' question); sdist-only scores 30, because pip then builds it locally and runs its build backend (setup.py or PEP 517 hooks) at install time. ' +
    'For an sdist-only release the sdist (`.tar.gz`) is read as it streams: its top-level `setup.py` is scanned and `pyproject.toml` names the build backend; overridden install commands (`cmdclass` for install, develop, egg_info, build_py, install_lib, install_scripts, bdist_wheel, bdist_egg) are named, still 30; code that downloads and runs, executes decoded data, sends credentials or the environment, opens a reverse shell, hides imports, carries an encoded blob or runs an AI coding agent with its permission checks off scores 10 and holds the verdict at CAUTION (a compiler run through `subprocess` is an ordinary build). ' +
    'Unknown when the release has neither a wheel nor an sdist.',
  messages: {
    wheels: '{wheels} wheels published; installing runs no build code',
    'sdist-only': 'Source distribution only: installing it runs the package\'s build code (setup.py / build backend) on your machine',
    'sdist-commands': 'Source distribution only: installing it runs its build code, and its setup.py overrides {commands}',
    'sdist-suspicious': 'Source distribution only, and its setup.py {flags} at install: {file}',
    'no-distributions': 'No wheel or sdist in this release: nothing pip can install',
  },
  evaluate: ({ pypi }) => {
    const live = pypi.files.filter((f) => !f.yanked || pypi.yanked);
    const wheels = live.filter((f) => f.packagetype === 'bdist_wheel');
    const sdists = live.filter((f) => f.packagetype === 'sdist').length;
    const data: Record<string, EvidenceValue> = {
      wheels: wheels.length,
      sdists,
      // A pure-Python wheel (`py3-none-any`) installs on every platform.
      pureWheel: wheels.some((f) => /-none-any\.whl$/i.test(f.filename)),
      sdistOnly: pypi.sdistOnly,
    };
    if (pypi.sdistOnly || (wheels.length === 0 && sdists > 0)) {
      const build = pypi.sdistBuild;
      const setup = build?.files.find((f) => f.path === 'setup.py');
      const pyproject = build?.files.find((f) => f.path === 'pyproject.toml');
      const reading = setup === undefined ? { commands: [], flags: [] } : readBuildScript(setup.text);
      const sdistData: Record<string, EvidenceValue> = {
        ...data,
        // null: not read (evidence saved before nerq read sdists, or the sdist was unavailable).
        buildFiles: build === undefined || build.unavailable !== null ? null : build.files.map((f) => f.path),
        buildUnread: build?.unavailable ?? null,
        buildBackend: pyproject === undefined ? null : buildBackend(pyproject.text),
        commands: reading.commands,
      };
      if (reading.flags.length > 0) {
        return {
          score: 10,
          messageId: 'sdist-suspicious',
          data: { ...sdistData, flags: reading.flags, file: build?.sdist ?? '' },
          holdVerdict: `its setup.py, which pip runs to build the sdist on every installing machine, ${reading.flags.join(', ')}: read it before installing (a release with a wheel, or without that code, would lift this)`,
        };
      }
      if (reading.commands.length > 0) return { score: SDIST_ONLY_SCORE, messageId: 'sdist-commands', data: sdistData };
      return { score: SDIST_ONLY_SCORE, messageId: 'sdist-only', data: sdistData };
    }
    if (wheels.length > 0) return { score: 100, messageId: 'wheels', data };
    return { score: null, messageId: 'no-distributions', data };
  },
});

/** `[build-system] build-backend` of a pyproject.toml (`setuptools.build_meta`, `hatchling.build` …); `(in-tree)` suffix with `backend-path`. */
function buildBackend(text: string): string | null {
  const backend = /^\s*build-backend\s*=\s*["']([\w.:-]{1,100})["']/m.exec(text)?.[1];
  if (backend === undefined) return null;
  return /^\s*backend-path\s*=/m.test(text) ? `${backend} (in-tree)` : backend;
}
