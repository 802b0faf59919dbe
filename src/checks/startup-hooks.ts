/**
 * startup-hooks: the `.pth` files the release's wheel installs at the root of site-packages.
 * Python's `site` module executes every line of such a file that starts with `import`, at every
 * interpreter start: installing the wheel leaves code that runs on every later `python`.
 */
import type { EvidenceValue } from './define.js';
import { defineCheck } from './define.js';
import { readPth, type PthKind } from './lib/python-code.js';

export default defineCheck({
  id: 'startup-hooks',
  dimension: 'security',
  weight: 2,
  needs: ['pypi'],
  title: 'Startup hooks',
  description:
    'Reads the central directory of the wheel pip would most likely install (pure `py3-none-any`, else CPython manylinux x86_64, else the first) by HTTP range requests, and the `.pth` files it installs at the root of site-packages: Python executes their `import` lines at every interpreter start. ' +
    'None, or paths only, scores 100; setuptools\' namespace-package and `distutils-precedence.pth` templates 90; other startup code 30, named; code that fetches, decodes, spawns processes, reads credentials or carries an encoded blob — or a `.pth` too large to read — 10 and holds the verdict at CAUTION. ' +
    'Unknown when the wheel could not be read (file host down, no range support and over the cap, not a zip) or the release has no wheel (see wheels-published).',
  messages: {
    none: 'The wheel installs no startup hooks ({entries} entries read)',
    paths: 'The wheel\'s .pth files only add paths: {files}',
    templates: 'The wheel installs setuptools\' own startup hooks: {files}',
    code: 'The wheel installs code Python runs at every start: {excerpts}',
    suspicious: 'The wheel installs startup code that fetches, decodes or hides what it runs ({flags}): {excerpts}',
    'no-wheel': 'No wheel in this release: nothing installs startup hooks from a wheel (see wheels-published)',
    unread: 'The wheel\'s startup hooks were not read: {reason}',
  },
  evaluate: ({ pypi }): { score: number | null; messageId: 'none' | 'paths' | 'templates' | 'code' | 'suspicious' | 'no-wheel' | 'unread'; data: Record<string, EvidenceValue>; holdVerdict?: string } => {
    const contents = pypi.wheelContents;
    if (contents === undefined) return { score: null, messageId: 'unread', data: { reason: 'the evidence predates nerq reading wheels (a fresh run with --no-cache reads it)' } };
    if (contents.wheel === null) return { score: null, messageId: 'no-wheel', data: { reason: 'no wheel' } };
    const base = { wheel: contents.wheel, bytesRead: contents.bytesRead, size: contents.size };
    if (contents.unavailable !== null) return { score: null, messageId: 'unread', data: { ...base, reason: contents.unavailable } };

    const readings = contents.hooks.map((hook) => ({ hook, reading: hook.text === null ? null : readPth(hook.text) }));
    const files = readings.map(({ hook }) => hook.path.replace(/^.*\//, ''));
    const kinds = readings.map(({ reading }) => reading?.kind ?? 'unreadable');
    const data: Record<string, EvidenceValue> = { ...base, entries: contents.entries, files, kinds };
    if (readings.length === 0) return { score: 100, messageId: 'none', data };

    const flags = [
      ...new Set([
        ...readings.flatMap(({ hook, reading }) => (reading === null ? [`unreadable: ${hook.unread ?? 'not read'}`] : reading.flags)),
        ...(contents.hooksUnread > 0 ? [`${contents.hooksUnread} more .pth files`] : []),
      ]),
    ];
    const excerpts = readings.flatMap(({ hook, reading }) => (reading === null ? [] : reading.code.map((line) => `${hook.path.replace(/^.*\//, '')}: ${line}`)));
    if (flags.length > 0) {
      return {
        score: 10,
        messageId: 'suspicious',
        data: { ...data, flags, excerpts },
        holdVerdict: `its wheel installs a .pth startup hook that fetches, decodes or hides code (${flags.join(', ')}): Python runs it at every start on every machine that installs the package; read it before installing (a release without it would lift this)`,
      };
    }
    const has = (kind: PthKind): boolean => kinds.includes(kind);
    if (has('code')) return { score: 30, messageId: 'code', data: { ...data, excerpts } };
    if (has('namespace') || has('distutils-precedence')) return { score: 90, messageId: 'templates', data };
    return { score: 100, messageId: 'paths', data };
  },
});
