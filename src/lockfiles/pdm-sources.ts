/**
 * The package sources a PDM project declares: `[[tool.pdm.source]]` in its pyproject.toml
 * (`name`, `url`, `type = "index" | "find_links"`, `include_packages`, `exclude_packages`).
 * pdm.lock names no source per entry, so an entry of a project that declares a source other
 * than PyPI may come from it, and is then checked as uv's entries from another index are
 * (docs/security.md, "Lockfile injection"). A source the project declares can only make nerq
 * stricter, so the file is read without a trust flag.
 *
 * Which sources pdm searches for a package (PDM's "Specify index for individual packages"):
 * the sources whose `include_packages` match its name, when some do; otherwise every source
 * whose `exclude_packages` do not. A source named `pypi` replaces PyPI; without one, PyPI is
 * searched too (PDM's `pypi.url` setting, on the machine that locks, is not read). A name
 * is matched as pdm matches it, by glob (`*`, `?`, `[…]`) on its normalised name. More than
 * MAX_GLOBS globs, a glob over MAX_GLOB_LENGTH or a name over MAX_MATCHED_NAME characters are
 * not matched: every source is then taken as possibly serving the package (the strictest
 * reading), so that a hostile pyproject cannot make the matching costly. Pure.
 */
import { z } from 'zod';
import { pep503 } from '../ecosystems/pypi/name.js';
import { isPypiIndex } from './python-hashes.js';

/** The most include/exclude globs of a project read (a real one has a handful). */
const MAX_GLOBS = 16;
/** The longest glob read. */
const MAX_GLOB_LENGTH = 64;
/** The longest package name matched against globs (a longer one gets the strictest reading). */
const MAX_MATCHED_NAME = 100;

export interface PdmSource {
  url: string;
  include: string[];
  exclude: string[];
}

const Pyproject = z.object({
  tool: z
    .object({
      pdm: z
        .object({
          source: z
            .array(
              z.object({
                url: z.string().optional(),
                include_packages: z.array(z.string()).optional(),
                exclude_packages: z.array(z.string()).optional(),
              }),
            )
            .optional(),
        })
        .optional(),
    })
    .optional(),
});

/** The sources of a parsed pyproject.toml that name a URL (one without a URL locates nothing); none when it declares none or not in this shape. */
export function pdmSources(pyproject: unknown): PdmSource[] {
  const parsed = Pyproject.safeParse(pyproject);
  if (!parsed.success) return [];
  return (parsed.data.tool?.pdm?.source ?? []).flatMap((source) =>
    source.url === undefined || source.url.trim() === '' ? [] : [{ url: source.url, include: source.include_packages ?? [], exclude: source.exclude_packages ?? [] }],
  );
}

/** One glob token: a literal character, `?`, `*`, or a `[…]` class (`[!…]` negated, ranges `a-z`). */
type GlobToken = { kind: 'char'; char: string } | { kind: 'any' } | { kind: 'star' } | { kind: 'class'; negated: boolean; test: (c: string) => boolean };

function globTokens(glob: string): GlobToken[] {
  const tokens: GlobToken[] = [];
  for (let i = 0; i < glob.length; i += 1) {
    const c = glob[i] ?? '';
    if (c === '*') tokens.push({ kind: 'star' });
    else if (c === '?') tokens.push({ kind: 'any' });
    else if (c === '[' && glob.indexOf(']', i + 2) !== -1) {
      const end = glob.indexOf(']', i + 2);
      let body = glob.slice(i + 1, end);
      const negated = body.startsWith('!');
      if (negated) body = body.slice(1);
      const chars = [...body];
      const ranges: Array<[string, string]> = [];
      for (let k = 0; k < chars.length; k += 1) {
        const low = chars[k] ?? '';
        const high = chars[k + 2];
        if (chars[k + 1] === '-' && high !== undefined) {
          ranges.push([low, high]);
          k += 2;
        } else ranges.push([low, low]);
      }
      const test = (ch: string) => ranges.some(([low, high]) => low <= ch && ch <= high);
      tokens.push({ kind: 'class', negated, test });
      i = end;
    } else tokens.push({ kind: 'char', char: c });
  }
  return tokens;
}

/**
 * Whether `name` matches a glob of pdm's (fnmatch: `*`, `?`, `[seq]`, `[!seq]`), in time linear
 * in their product: the usual wildcard walk that backtracks only to the last `*` (a regular
 * expression of a pattern with many `*` backtracks super-linearly, and the audited tree writes both).
 */
export function globMatches(name: string, glob: string): boolean {
  const tokens = globTokens(glob);
  const one = (token: GlobToken, ch: string): boolean =>
    token.kind === 'any' || (token.kind === 'char' && token.char === ch) || (token.kind === 'class' && token.test(ch) !== token.negated);
  let t = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  while (n < name.length) {
    const token = tokens[t];
    if (token !== undefined && token.kind !== 'star' && one(token, name[n] ?? '')) {
      t += 1;
      n += 1;
    } else if (token?.kind === 'star') {
      star = t;
      resume = n;
      t += 1;
    } else if (star !== -1) {
      t = star + 1;
      resume += 1;
      n = resume;
    } else return false;
  }
  while (tokens[t]?.kind === 'star') t += 1;
  return t === tokens.length;
}

function matches(name: string, globs: readonly string[]): boolean {
  return globs.some((glob) => globMatches(name, glob));
}

/**
 * The URL of a source other than PyPI that pdm may take `name` from, the first one in the
 * file's order; null when every source pdm would search for it is PyPI.
 */
export function pdmIndexFor(name: string, sources: readonly PdmSource[], pypi: readonly string[] = []): string | null {
  const key = pep503(name);
  // Past these bounds the globs are not read: every source may serve the package, which is the
  // strictest reading (at least the answer the globs would give), and each package's cost stays bounded.
  const globs = sources.flatMap((source) => [...source.include, ...source.exclude]);
  if (globs.length > MAX_GLOBS || globs.some((glob) => glob.length > MAX_GLOB_LENGTH) || key.length > MAX_MATCHED_NAME) {
    return sources.find((source) => !isPypiIndex(source.url, pypi))?.url ?? null;
  }
  const included = sources.filter((source) => matches(key, source.include));
  const searched = included.length > 0 ? included : sources.filter((source) => !matches(key, source.exclude));
  return searched.find((source) => !isPypiIndex(source.url, pypi))?.url ?? null;
}
