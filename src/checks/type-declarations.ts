/**
 * type-declarations: whether users get type information with the package itself —
 * TypeScript declarations for npm, inline type hints (`Typing :: Typed`, PEP 561) for PyPI.
 * One check rather than a PyPI twin: the question and its scoring are the same, only where the
 * declaration is read differs.
 *
 * A package that is only a command (a `bin`, nothing a `require` or `import` loads) has no use
 * for types: marking it down would be a false signal, so the check leaves it out — only when the
 * tarball's files were all listed (an index file past them may be importable).
 */
import { defineCheck } from './define.js';

export default defineCheck({
  id: 'type-declarations',
  dimension: 'documentation',
  weight: 1,
  needs: ['release'],
  optional: ['documents', 'tarball'],
  title: 'Type declarations',
  description:
    'Looks for type information: for npm a `types`/`typings` field or a `types` export condition in the manifest, or `.d.ts`/`.d.mts`/`.d.cts` files in the tarball; for PyPI the `Typing :: Typed` classifier (PEP 561 inline types). ' +
    'Present scores 100, absent 40 (npm types may still come from DefinitelyTyped); unknown when nothing is declared and the files cannot be looked at (the npm tarball unavailable; PyPI wheels are not read for `py.typed`). ' +
    'An npm package that is only a command — its package.json declares `bin` (or `directories.bin`) and none of `main`, `module`, `browser`, `exports`, `types`, `typings`, and the tarball, every file of it listed, holds no root index file — is left out: nothing imports it.',
  messages: {
    declared: 'Declares TypeScript types in its manifest',
    'typed-classifier': 'Declares inline type hints (`Typing :: Typed` classifier)',
    shipped: 'Ships TypeScript declaration files ({declarationFiles})',
    none: 'No TypeScript declarations shipped',
    'command-only': 'Not applicable: a command-line package with nothing to import, so type declarations have no use',
    'none-no-tarball': 'Unknown: no `types` field, and the tarball was unavailable to look for declaration files',
    'not-declared-pypi': 'Unknown: no `Typing :: Typed` classifier, and the wheels are not read to look for a py.typed marker',
  },
  evaluate: ({ release, documents, tarball }) => {
    const declarationFiles = documents === undefined ? null : documents.declarationFiles;
    switch (release.ecosystem) {
      case 'pypi': {
        const data = { typed: release.typesDeclared };
        return release.typesDeclared
          ? { score: 100, messageId: 'typed-classifier', data }
          : { score: null, messageId: 'not-declared-pypi', data };
      }
      case 'npm':
        break;
      default:
        return release.ecosystem satisfies never;
    }
    const data = { declaresTypes: release.typesDeclared, declarationFiles };
    // Only a `false` read from a complete file listing: an absent fact (older evidence, a listing past its cap) judges as before.
    if (tarball?.manifest?.hasBin === true && tarball.entryPoints?.importable === false) {
      return { score: null, messageId: 'command-only', data: { ...data, hasBin: true, importable: false }, notApplicable: true };
    }
    if (release.typesDeclared) return { score: 100, messageId: 'declared', data };
    if (declarationFiles !== null && declarationFiles > 0) return { score: 100, messageId: 'shipped', data };
    // Without the tarball, absence of a `types` field proves nothing: unknown, not 40.
    if (declarationFiles === null) return { score: null, messageId: 'none-no-tarball', data };
    return { score: 40, messageId: 'none', data };
  },
});
