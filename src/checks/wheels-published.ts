/**
 * wheels-published: whether the resolved PyPI release ships a wheel. An sdist-only release is
 * built on the installing machine: pip runs its build backend (setup.py or the PEP 517 hooks),
 * which is arbitrary code from the package at install time — PyPI's counterpart of npm install
 * scripts.
 */
import type { EvidenceValue } from './define.js';
import { defineCheck } from './define.js';

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
    'Unknown when the release has neither a wheel nor an sdist.',
  messages: {
    wheels: '{wheels} wheels published; installing runs no build code',
    'sdist-only': 'Source distribution only: installing it runs the package\'s build code (setup.py / build backend) on your machine',
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
    if (pypi.sdistOnly || (wheels.length === 0 && sdists > 0)) return { score: SDIST_ONLY_SCORE, messageId: 'sdist-only', data };
    if (wheels.length > 0) return { score: 100, messageId: 'wheels', data };
    return { score: null, messageId: 'no-distributions', data };
  },
});
