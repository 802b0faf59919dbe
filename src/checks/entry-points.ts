/**
 * entry-points: whether the files an npm version's package.json names as its entry points are
 * in its tarball. A release whose `main`, `bin` target or `.` export is not there is broken as
 * shipped — a `require`, an `import` or the command fails on every machine (faker 6.6.6, the
 * protest release, shipped without the `index.js` its `main` names). Resolution follows Node,
 * npm and TypeScript (lib/entry-points.ts; docs/checks.md, `entry-points`).
 *
 * Entry points that are all there are not a reason to add points (docs/scoring.md §6a): as
 * load-time-code does, the check leaves itself out then, and only a broken entry point scores.
 * A subpath export or a type declaration that is missing breaks a deep import or a type check,
 * not the package: measured on 310 real npm tarballs, 5 well-kept packages (rxjs, vitest,
 * react-router among them) ship such a stale entry, none a broken `main`, `bin` or `.` export —
 * those are listed in the evidence and leave the check out too, as does the `main` or `.` export
 * of a package whose commands are all there (yo 7.0.1, prisma 7.10.1: run, not imported), and the
 * `.` export of a package imported by named subpaths that are there (@modelcontextprotocol/sdk
 * 1.32.2: `./client`, `./server`).
 *
 * A package named after a Node built-in module (`crypto`, `child_process`) is never what Node
 * loads for that name: its missing `main` breaks no require of `crypto`, which loads the
 * built-in. Without the code it names it is a stand-in that holds the name (npm's placeholders
 * crypto 1.0.1, child_process 1.0.2, a README and a package.json): held as that, not as a broken
 * release, with the built-in to use instead.
 */
import { isNodeBuiltinName } from '../ecosystems/npm/node-builtins.js';
import { defineCheck, type CheckOutcome } from './define.js';
import { truncate } from './lib/text.js';

/** Missing entry points listed in the evidence at most. */
const MAX_LISTED = 20;
const MAX_TEXT = 80;

type Missing = { field: string; key: string; target: string };

function describe(m: Missing): string {
  const where = m.field === 'bin' ? `bin ${JSON.stringify(truncate(m.key, MAX_TEXT))}` : m.key === '' ? m.field : `exports ${truncate(m.key, MAX_TEXT)}`;
  return `${where} → ${JSON.stringify(truncate(m.target, MAX_TEXT))}`;
}

export default defineCheck({
  id: 'entry-points',
  dimension: 'security',
  weight: 1,
  needs: ['registry'],
  optional: ['tarball'],
  title: 'Entry points',
  description:
    "Looks up, in the npm tarball, the files its package.json names as entry points, resolved as Node, npm and TypeScript resolve them: `main` (the file, then with .js, .json or .node added, then as a folder's index, then the package's own index.js; read only when there is no `exports`, which Node then ignores it for), each `bin` target (the exact file), each `exports` target Node can reach under the conditions it resolves (`node`, `import`, `require`, `module-sync`, `default`: the first that matches is taken, so a condition after `node` or `default` is never read) and TypeScript's `types` (a `*` pattern resolves when some file matches it; a `null` target excludes a subpath; other conditions, such as a monorepo's own `source`, are not looked up), and `types`/`typings` (with `.d.ts` added or in place of `.js`; an `@types/` package's `exports` are all type entries, looked up so). " +
    'A missing `main`, `bin` target or `.` export (what a `require`, an `import` or the command of the package itself needs) scores 0 and holds the verdict at CAUTION: the release is broken as shipped — or, for a package named after a Node built-in module (`crypto`, `child_process`), which Node never loads for that name (a `require` loads the built-in), it is a stand-in holding the name, not a package to install: held so, naming the built-in to use. All present leaves the check out of the report (it never adds points), as do a missing subpath export or type declaration alone (a deep import or a type check fails; the package loads), a missing `main` or `.` export of a package whose commands are all there (it is run, not imported), and a missing `.` export of a package whose named subpath exports have their JavaScript there (it is imported by those subpaths; a `*` pattern or `./package.json` does not count); the held verdict of a broken release names only what breaks it; unknown when the tarball or its package.json was not read, when a target is not found among more files than nerq lists (200,000), and for evidence saved before nerq looked.',
  messages: {
    present: 'The entry points the package.json names are in the tarball ({declared} looked up)',
    'secondary-missing': 'Entry points the package loads or runs without are not in the tarball (a subpath export, a type declaration, the import target of a package run as a command or imported by its subpaths): {summary}',
    broken: 'The package.json names entry points the tarball does not hold: {summary}',
    'builtin-stand-in': "A stand-in named after Node's built-in module {name}, without the entry points its package.json names ({summary}): a require or import of {name} loads the built-in, never this package",
    unread: 'The entry points were not looked up: {reason}',
  },
  evaluate: ({ registry, tarball }): CheckOutcome<'present' | 'secondary-missing' | 'broken' | 'builtin-stand-in' | 'unread'> => {
    if (tarball === undefined) return { score: null, messageId: 'unread', data: { reason: 'the tarball was not read' } };
    const found = tarball.entryPoints;
    if (found === undefined) {
      const reason = tarball.manifest === null ? (tarball.manifestProblem ?? 'its package.json was not read') : 'the evidence predates nerq looking up entry points (a fresh run with --no-cache looks)';
      return { score: null, messageId: 'unread', data: { reason } };
    }
    // What breaks the release first: the summary a held verdict quotes names only those.
    const primary = found.missing.filter((m) => m.primary);
    const ordered = [...primary, ...found.missing.filter((m) => !m.primary)];
    const missing = ordered.slice(0, MAX_LISTED).map(describe);
    const named = (primary.length > 0 ? primary : ordered).map(describe);
    const summary = `${named.slice(0, 3).join('; ')}${named.length > 3 ? `; ${named.length - 3} more` : ''}`;
    const data = { declared: found.declared, missing, count: found.missing.length, summary };
    if (found.missing.length > 0 && !found.listedAll) return { score: null, messageId: 'unread', data: { ...data, reason: 'the tarball has more files than nerq lists, and a target was not among those listed' } };
    if (primary.length > 0 && isNodeBuiltinName(registry.name)) {
      return {
        score: 0,
        messageId: 'builtin-stand-in',
        data: { ...data, name: registry.name },
        holdVerdict: `the package is a stand-in named after Node's built-in module ${registry.name}: it ships without the entry points its package.json names (${summary}), and a require or import of ${registry.name} loads the built-in, never this package — use the built-in, not a dependency on this package`,
      };
    }
    if (primary.length > 0) {
      return {
        score: 0,
        messageId: 'broken',
        data,
        holdVerdict: `the release is broken as shipped: its package.json names entry points the tarball does not hold (${summary}); a release that ships them would lift this`,
      };
    }
    if (found.missing.length > 0) return { score: null, messageId: 'secondary-missing', data, notApplicable: true };
    return { score: null, messageId: 'present', data: { declared: found.declared }, notApplicable: true };
  },
});
