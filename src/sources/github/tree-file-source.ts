/**
 * A repository's files as the recursive tree listing already showed them (repo-files.ts): the
 * link verifier (link.ts) lists folders from the tree and reads the manifests already read from
 * their texts, so verifying the packages a repository target advertises costs a request only for
 * a file the listing has and nobody read yet — not a folder listing per workspace glob and a
 * contents request per member manifest (docs/scoring.md §9, "Repository targets").
 */
import type { TreeEntry } from './files.js';
import type { DirRead, FileRead, RepoFileSource } from './link.js';
import type { RepoTreeItem } from './repo-tree.js';

/** What reading the repository's files already gave: its tree and the texts read, by path. */
export interface RepositoryAlreadyRead {
  tree: readonly RepoTreeItem[];
  /** The listing was cut by GitHub: what it lacks may still exist. */
  truncated: boolean;
  texts: ReadonlyMap<string, string>;
}

const entryType = (type: RepoTreeItem['type']): TreeEntry['type'] => (type === 'blob' ? 'file' : type === 'tree' ? 'dir' : 'other');

/** The folder's direct children, paths relative to it (as the contents API lists them). */
function childrenOf(tree: readonly RepoTreeItem[], dir: string): TreeEntry[] {
  const prefix = dir === '' ? '' : `${dir}/`;
  return tree
    .filter((item) => item.path.startsWith(prefix) && item.path.length > prefix.length && !item.path.slice(prefix.length).includes('/'))
    .map((item) => ({ path: item.path.slice(prefix.length), type: entryType(item.type) }));
}

/**
 * Files the link verifier may still ask GitHub for, over all the claims of one repository: a
 * monorepo whose workspace lists dozens of members (examples, tools) would otherwise cost a
 * request per member manifest — more than the 60 an hour GitHub allows without a token. A file
 * past the budget is not read, and the claim it would have confirmed stays unconfirmed with that
 * reason (never verified by guess).
 */
export const VERIFY_READ_BUDGET = 8;

/**
 * The file source over what was read; `rest` reads what the tree lists and was not read, at most
 * `budget` files. The whole tree is handed on (`allEntries`): workspace globs, `**` included, are
 * matched against it, and only folders holding a package.json are members. With a truncated tree
 * every question goes to `rest` (the listing cannot say what is missing).
 */
export function alreadyReadFileSource(known: RepositoryAlreadyRead, rest: RepoFileSource, budget = VERIFY_READ_BUDGET): RepoFileSource {
  if (known.truncated) return rest;
  const kinds = new Map(known.tree.map((item) => [item.path, item.type]));
  let left = budget;
  return {
    rootEntries: childrenOf(known.tree, ''),
    allEntries: known.tree.map((item) => ({ path: item.path, type: entryType(item.type) })),
    async read(paths) {
      const out = new Map<string, FileRead>();
      const toAsk: string[] = [];
      for (const path of paths) {
        const text = known.texts.get(path);
        if (text !== undefined) out.set(path, { kind: 'file', text });
        else if (kinds.get(path) !== 'blob') out.set(path, { kind: 'missing' });
        else if (left > 0) {
          left -= 1;
          toAsk.push(path);
        } else out.set(path, { kind: 'error', reason: `not read: at most ${budget} more files are read to verify a repository's packages`, limited: true });
      }
      if (toAsk.length > 0) for (const [path, read] of await rest.read(toAsk)) out.set(path, read);
      return out;
    },
    async list(dirs) {
      const out = new Map<string, DirRead>();
      for (const dir of dirs) {
        const clean = dir.replace(/^\/+|\/+$/g, '');
        out.set(dir, clean === '' || kinds.get(clean) === 'tree' ? { kind: 'dir', entries: childrenOf(known.tree, clean) } : { kind: 'missing' });
      }
      return out;
    },
  };
}
