/**
 * type-declarations: whether TypeScript users get types with the package itself.
 */
import { defineCheck } from './define.js';

export default defineCheck({
  id: 'type-declarations',
  dimension: 'documentation',
  weight: 1,
  needs: ['registry'],
  optional: ['tarball'],
  title: 'Type declarations',
  description:
    'Looks for TypeScript declarations: a `types`/`typings` field or a `types` export condition in the manifest, or `.d.ts`/`.d.mts`/`.d.cts` files in the tarball. ' +
    'Present scores 100, absent 40 (types may still come from DefinitelyTyped); with no `types` field and the tarball unavailable it is unknown.',
  messages: {
    declared: 'Declares TypeScript types in its manifest',
    shipped: 'Ships TypeScript declaration files ({declarationFiles})',
    none: 'No TypeScript declarations shipped',
    'none-no-tarball': 'Unknown: no `types` field, and the tarball was unavailable to look for declaration files',
  },
  evaluate: ({ registry, tarball }) => {
    const declarationFiles = tarball === undefined ? null : tarball.declarationFiles;
    const data = { declaresTypes: registry.declaresTypes, declarationFiles };
    if (registry.declaresTypes) return { score: 100, messageId: 'declared', data };
    if (declarationFiles !== null && declarationFiles > 0) return { score: 100, messageId: 'shipped', data };
    // Without the tarball, absence of a `types` field proves nothing: unknown, not 40.
    if (declarationFiles === null) return { score: null, messageId: 'none-no-tarball', data };
    return { score: 40, messageId: 'none', data };
  },
});
