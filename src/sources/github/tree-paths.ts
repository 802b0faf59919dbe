/** Paths inside a repository tree listing (`a/b/c`, no leading slash; the root folder is ''). */

/** The folder a path is in ('' at the root). */
export function dirOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

/** The last segment of a path. */
export function baseOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** The folders from `dir` up to the root, nearest first. */
export function upward(dir: string): string[] {
  const out = [dir];
  for (let d = dir; d !== ''; ) {
    d = dirOf(d);
    out.push(d);
  }
  return out;
}
