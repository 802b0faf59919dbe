/**
 * The files a tarball reading left unread, in words: grouped by the limit each reached, with its
 * value (src/sources/npm/install-code.ts records it; docs/checks.md, `install-scripts` and
 * `load-time-code`). One wording for both checks.
 */
import type { TarballFacts } from '../../evidence/schema.js';
import { truncate } from './text.js';

type UnreadCause = NonNullable<NonNullable<TarballFacts['installCode']>['unreadCauses']>[string];

const MiB = 1024 * 1024;
/** Paths named for each limit. */
const PATHS_PER_CAP = 3;
/** Characters of a path shown. */
const PATH_CHARS = 80;

const amount = (n: number | undefined, unit: 'files' | 'characters' | 'bytes'): string =>
  n === undefined ? '' : unit === 'files' ? `${n} ` : n % MiB === 0 ? `${n / MiB} MiB ` : `${n.toLocaleString('en-US')} ${unit === 'bytes' ? 'bytes' : 'characters'} `;

/** The limit a file left unread reached, in words with its value; `past the caps` when none was recorded (evidence saved before nerq recorded it). */
function capWords(cause: UnreadCause | undefined): string {
  switch (cause?.cap) {
    case 'files': return `past the cap of ${amount(cause.limit, 'files')}files read`;
    case 'characters': return `past the cap of ${amount(cause.limit, 'characters')}of code read in all`;
    case 'module-size': return `larger than the ${amount(cause.limit, 'bytes')}a loaded module is kept to`;
    case 'module-pool': return `past the ${amount(cause.limit, 'bytes')}of loaded modules kept in all`;
    case 'wanted-files': return `past the ${amount(cause.limit, 'files')}files kept that a command names`;
    case 'paths': return `past the ${amount(cause.limit, 'files')}paths of the archive remembered`;
    case 'not-kept': return 'not kept as the archive streamed past';
    default: return 'past the caps';
  }
}

/** The files left unread, grouped by the limit each reached: at most 3 paths named per limit, with how many more. */
export function unreadByCap(unread: readonly string[], causes: Readonly<Record<string, UnreadCause>> | undefined): string[] {
  const groups = new Map<string, string[]>();
  for (const path of unread) {
    const words = capWords(causes?.[path]);
    groups.set(words, [...(groups.get(words) ?? []), path]);
  }
  return [...groups].map(([words, paths]) => {
    const more = paths.length > PATHS_PER_CAP ? ` and ${paths.length - PATHS_PER_CAP} more` : '';
    return `${paths.slice(0, PATHS_PER_CAP).map((path) => truncate(path, PATH_CHARS)).join(', ')}${more}: ${words}`;
  });
}
