/**
 * install-scripts: what npm runs on your machine when the package is installed.
 */
import { defineCheck } from './define.js';
import {
  installHooks,
  isPlainNativeBuild,
  scriptLabel,
  suspiciousPatterns,
  truncateCommand,
} from './lib/install-hooks.js';

export default defineCheck({
  id: 'install-scripts',
  dimension: 'security',
  weight: 3,
  needs: ['registry'],
  optional: ['tarball'],
  holdsWhenUnread: 'the tarball was not read to its end: npm extracts all of it, and its install scripts are unknown',
  title: 'Install scripts',
  description:
    'Looks for code npm runs at install time (npm only; for PyPI see wheels-published and startup-hooks): preinstall/install/postinstall scripts, `gypfile: true`, or a `binding.gyp` in the tarball (npm then runs `node-gyp rebuild`, unless the manifest opts out with `gypfile: false`), and the same for each package the tarball bundles under `node_modules/` (named by its package; one whose package.json was not read counts as a script). ' +
    'None scores 100, a plain native build (`node-gyp rebuild`, `node-gyp-build`) 60, other scripts 30, and scripts that download, decode or evaluate code (curl, wget, URLs, `node -e` — unless the code only requires files of the package itself, which runs them —, `eval`, base64, PowerShell, piping into a shell…) 10 and hold the verdict at CAUTION. Unknown, holding the verdict at CAUTION, when the tarball was not read to its end (over a cap: npm extracts all of it).',
  messages: {
    none: 'No install-time scripts',
    'native-build': 'Builds native code at install ({hooks}): {commands}',
    scripts: 'Runs install scripts: {commands}',
    suspicious: 'Install script fetches or evaluates code ({flags}): {commands}',
  },
  evaluate: ({ registry, tarball }) => {
    const hooks = installHooks(registry, tarball);
    const implicitGyp = hooks.nativeBuild && !hooks.scripts.some((s) => s.name === 'install' || s.name === 'preinstall');
    // A bundled dependency's script is this package's install-time code too, named by its package.
    const commands = hooks.scripts.map((s) => `${scriptLabel(s)}: ${truncateCommand(s.command)}`);
    if (implicitGyp) commands.push('install: node-gyp rebuild (implicit, binding.gyp)');
    const bundled = [...new Set(hooks.scripts.flatMap((s) => (s.bundled === undefined ? [] : [s.bundled])))];
    const data = {
      scripts: hooks.scripts.map((s) => s.name),
      commands,
      gyp: hooks.nativeBuild,
      bindingGyp: tarball === undefined ? null : tarball.bindingGyp,
      ...(bundled.length === 0 ? {} : { bundled }),
    };
    if (hooks.scripts.length === 0 && !hooks.nativeBuild) return { score: 100, messageId: 'none', data };
    const flags = [...new Set(hooks.scripts.flatMap((s) => suspiciousPatterns(s.command)))];
    if (flags.length > 0) {
      return {
        score: 10,
        messageId: 'suspicious',
        data: { ...data, flags },
        holdVerdict: `its install script fetches or evaluates code (${flags.join(', ')}): it runs on every machine that installs the package; read it before installing (a release without it would lift this)`,
      };
    }
    if (hooks.scripts.every((s) => isPlainNativeBuild(s.command))) {
      const hookNames = [...hooks.scripts.map((s) => s.name), ...(implicitGyp ? ['binding.gyp'] : [])];
      return { score: 60, messageId: 'native-build', data: { ...data, hooks: hookNames } };
    }
    return { score: 30, messageId: 'scripts', data };
  },
});
