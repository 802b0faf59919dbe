/**
 * wheels-published: whether the resolved PyPI release ships a wheel. An sdist-only release is
 * built on the installing machine: pip runs its build backend (setup.py or the PEP 517 hooks),
 * which is arbitrary code from the package at install time — PyPI's counterpart of npm install
 * scripts.
 */
import type { EvidenceValue } from './define.js';
import { defineCheck } from './define.js';
import { IMPORT_FLAGS, readImportCode, UNAMBIGUOUS_FLAGS, type ImportFlag } from './lib/import-code.js';
import { INSTALL_CODE_CAP } from './lib/install-code.js';
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
    'Reads the resolved release\'s files on PyPI: at least one wheel scores 100 (installing a wheel runs no build code; the `.pth` startup hooks a wheel may install are startup-hooks\' question); sdist-only scores ' +
    `${SDIST_ONLY_SCORE}, because pip then builds it locally and runs its build backend (setup.py or PEP 517 hooks) at install time; unknown when the release has neither a wheel nor an sdist. ` +
    'For an sdist-only release the sdist (`.tar.gz`) is read as it streams: its top-level `setup.py` is scanned and `pyproject.toml` names the build backend; overridden install commands (`cmdclass` for install, develop, egg_info, build_py, install_lib, install_scripts, bdist_wheel, bdist_egg) are named, ' +
    `still ${SDIST_ONLY_SCORE}. ` +
    'setup.py is read twice: for shapes anywhere in its text (exec beside decoding, a network call beside credential paths or the whole environment, a reverse shell (a socket opened beside a duplicated descriptor or a pty), an encoded blob, a hidden import, a process or exec function imported under another name) and by import-time-code\'s reader, which follows data through assignments and the script\'s own functions (a path or downloaded data passed to one or returned by it), under the names its imports give network and process calls, into exec/eval, processes and network calls and a downloaded file to the process that starts it or the chmod that makes it executable (a downloaded source archive unpacked and built is an ordinary build); ' +
    'host data (credentials, the whole environment, user and host names) or a capture of the screen, clipboard or keys sent, a clipboard wallet swap, or a socket wired to a shell, found by following the data, scores 0, holds the verdict and caps the score at ' +
    `${INSTALL_CODE_CAP.limit}, and any other finding of either reading (downloaded or decoded data run, process injection, a write where code runs again at login, a request to a literal public IP address or a request catcher, a hidden detached process, hidden names or imports, an encoded blob, an AI coding agent run with its permission checks off) scores 10 and holds the verdict at CAUTION.`,
  messages: {
    wheels: '{wheels} wheels published; installing runs no build code',
    'sdist-only': 'Source distribution only: installing it runs the package\'s build code (setup.py / build backend) on your machine',
    'sdist-commands': 'Source distribution only: installing it runs its build code, and its setup.py overrides {commands}',
    'sdist-suspicious': 'Source distribution only, and its setup.py {flags} at install: {file}',
    'sdist-hostile': 'Source distribution only, and its setup.py does what malicious packages do ({flags}) at install: {file}',
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
      const whole = setup === undefined ? { commands: [], flags: [] } : readBuildScript(setup.text);
      // The whole-text `download-and-run` (a network call anywhere beside a process anywhere) is
      // left to the data-flow reader, which follows the downloaded data or saved file into what
      // runs: over 236 real setup.py files the whole-text shape held one ordinary build (a
      // downloaded source archive unpacked and built) and no GuardDog case needed it (docs/checks.md).
      const reading = { ...whole, flags: whole.flags.filter((f) => f !== 'download-and-run') };
      // The same text through import-time-code's reader: data followed into exec, processes and sends.
      const flow: { flags: ImportFlag[]; excerpts: string[] } = setup === undefined ? { flags: [], excerpts: [] } : readImportCode(setup.text);
      const flags = [...IMPORT_FLAGS.filter((f) => flow.flags.includes(f) || reading.flags.includes(f)), ...reading.flags.filter((f) => !(IMPORT_FLAGS as readonly string[]).includes(f))];
      const sdistData: Record<string, EvidenceValue> = {
        ...data,
        // null: not read (evidence saved before nerq read sdists, or the sdist was unavailable).
        buildFiles: build === undefined || build.unavailable !== null ? null : build.files.map((f) => f.path),
        buildUnread: build?.unavailable ?? null,
        buildBackend: pyproject === undefined ? null : buildBackend(pyproject.text),
        commands: reading.commands,
      };
      if (flags.length > 0) {
        const findings: Record<string, EvidenceValue> = { flags, patternFlags: reading.flags, flowFlags: flow.flags, excerpts: flow.excerpts, file: build?.sdist ?? '' };
        const holdVerdict = `its setup.py, which pip runs to build the sdist on every installing machine, ${flags.join(', ')}: read it before installing (a release with a wheel, or without that code, would lift this)`;
        const hostile = flow.flags.filter((f) => UNAMBIGUOUS_FLAGS.includes(f));
        if (hostile.length > 0) {
          return {
            score: 0,
            messageId: 'sdist-hostile',
            data: { ...sdistData, ...findings },
            holdVerdict,
            caps: [{ ...INSTALL_CODE_CAP, reason: `the setup.py pip runs to build its sdist does what malicious packages do (${hostile.join(', ')}); do not install it before reading that code` }],
          };
        }
        return { score: 10, messageId: 'sdist-suspicious', data: { ...sdistData, ...findings }, holdVerdict };
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
