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
 * is matched as pdm matches it, by glob (`*`, `?`, `[…]`) on its normalised name. Pure.
 */
import { z } from 'zod';
import { pep503 } from '../ecosystems/pypi/name.js';
import { isPypiIndex } from './python-hashes.js';

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

/** A glob of pdm's (fnmatch) as a regular expression: `*`, `?`, `[seq]`, `[!seq]`; anything else literal. */
function globPattern(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i += 1) {
    const c = glob[i] ?? '';
    if (c === '*') out += '.*';
    else if (c === '?') out += '.';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end === -1) out += '\\[';
      else {
        const body = glob.slice(i + 1, end);
        const negated = body.startsWith('!');
        out += `[${negated ? '^' : ''}${(negated ? body.slice(1) : body).replace(/[\\\]^]/g, '\\$&')}]`;
        i = end;
      }
    } else out += c.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  }
  return new RegExp(`^${out}$`, 's');
}

function matches(name: string, globs: readonly string[]): boolean {
  return globs.some((glob) => globPattern(glob).test(name));
}

/**
 * The URL of a source other than PyPI that pdm may take `name` from, the first one in the
 * file's order; null when every source pdm would search for it is PyPI.
 */
export function pdmIndexFor(name: string, sources: readonly PdmSource[], pypi: readonly string[] = []): string | null {
  const key = pep503(name);
  const included = sources.filter((source) => matches(key, source.include));
  const searched = included.length > 0 ? included : sources.filter((source) => !matches(key, source.exclude));
  return searched.find((source) => !isPypiIndex(source.url, pypi))?.url ?? null;
}
