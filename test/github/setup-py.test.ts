/**
 * The name a setup.py's `setup(…)` call passes (src/sources/github/setup-py.ts), which links a
 * repository to a PyPI project (docs/security.md, "Starjacking"). A file calling `setup` more
 * than once names a project only when every call passes the same literal name.
 */
import { describe, expect, it } from 'vitest';
import { setupPyName } from '../../src/sources/github/setup-py.js';

describe('setupPyName', () => {
  const cases: [label: string, text: string, name: string | null][] = [
    ['one call', 'from setuptools import setup\nsetup(\n    name="real-project",\n    version="1.0",\n)\n', 'real-project'],
    ['module.setup', 'import setuptools\nsetuptools.setup(name="real-project")\n', 'real-project'],
    ['a name in a comment or another call does not count', '# setup(name="evil")\nprint(name="evil")\nsetup(name="real-project")\n', 'real-project'],
    ['a computed name', 'setup(name=NAME)\n', null],
    ['no name at all', 'setup()\n', null],
    ['a bracketed name is no literal', 'setup(name=("real-project"), version="1")\n', null],
    // The same name twice: a fallback build, a branch per Python version.
    ['two calls, one name', 'try:\n    setup(name="real-project", ext_modules=exts)\nexcept BuildFailed:\n    setup(name="real-project")\n', 'real-project'],
    ['a decoy call before the real one', 'if False:\n    setup(name="evil-project")\nsetup(name="real-project")\n', null],
    ['a decoy call after the real one', 'setup(name="real-project")\nif False:\n    setup(name="evil-project")\n', null],
    ['a decoy beside a call whose name is computed', 'if False:\n    setup(name="evil-project")\nsetup(name=NAME)\n', null],
    ['a decoy beside a call with no literal name', 'if False:\n    setup(name="evil-project")\nsetup(**options)\n', null],
    ['the name keyword twice in one call', 'setup(name="evil-project", name="real-project")\n', null],
    ['a def setup is no call', 'def setup(name="evil-project"):\n    pass\nsetuptools.setup(name="real-project")\n', 'real-project'],
  ];
  it.each(cases)('%s', (_label, text, name) => {
    expect(setupPyName(text)).toBe(name);
  });
});
