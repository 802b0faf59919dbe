/**
 * The releases a real lockfile pins, parsed here independently of nerq's readers (JSON.parse,
 * the `yaml`, `jsonc-parser` and `smol-toml` libraries, a line scan for yarn classic), so that
 * a registry or an evidence synthesised from them does not echo what nerq read.
 */
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { parse as parseYaml } from 'yaml';

/** One release a lockfile pins. */
export interface Pin {
  name: string;
  version: string;
  integrity: string | null;
  /** The sha1 (hex) yarn classic appends to `resolved`, when it does. */
  shasum: string | null;
}

/** Every registry release of a package-lock v2/v3 (`packages`, not links, not workspace folders). */
export function packageLockPins(text: string): Pin[] {
  const lock = JSON.parse(text) as { packages: Record<string, { name?: string; version?: string; integrity?: string; link?: boolean }> };
  return Object.entries(lock.packages)
    .filter(([key, entry]) => key.includes('node_modules/') && entry.link !== true && entry.version !== undefined)
    .map(([key, entry]) => ({
      name: entry.name ?? key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length),
      version: entry.version as string,
      integrity: entry.integrity ?? null,
      shasum: null,
    }));
}

/** Every entry of a yarn classic lockfile: the package its first key installs, `version`, `integrity`, `resolved`'s `#sha1`. */
export function yarnClassicPins(text: string): Pin[] {
  const pins: Pin[] = [];
  for (const block of text.split(/\n\n+/)) {
    const lines = block.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
    const key = lines[0];
    if (key === undefined || key.startsWith(' ')) continue;
    const first = key.split(',')[0]!.trim().replace(/^"|"$/g, '').replace(/:$/, '');
    const field = (re: RegExp) => lines.map((l) => re.exec(l)?.[1]).find((v) => v !== undefined) ?? null;
    // `"old@npm:abbrev@1.0.x"` installs abbrev.
    const range = first.slice(first.indexOf('@', 1) + 1);
    const name = range.startsWith('npm:') ? range.slice(4, range.indexOf('@', 5)) : first.slice(0, first.indexOf('@', 1));
    pins.push({
      name,
      version: field(/^ {2}version "([^"]+)"/) as string,
      integrity: field(/^ {2}integrity (\S+)/),
      shasum: field(/^ {2}resolved "[^"]*#([0-9a-f]{40})"/),
    });
  }
  return pins;
}

/**
 * Every `name@npm:<version>` resolution of a yarn berry lockfile (a line scan; the `::` parameters
 * cut off). Berry pins no tarball hash (its `checksum` is of yarn's zip cache): none is given.
 */
export function yarnBerryPins(text: string): Pin[] {
  return [...text.matchAll(/^ {2}resolution: "((?:@[^/"]+\/)?[^@"]+)@npm:([^":]+)(?:::[^"]*)?"$/gm)].map((m) => ({ name: m[1]!, version: m[2]!, integrity: null, shasum: null }));
}

/** Every `packages` key of a pnpm v9 lockfile (`name@version`) with its `resolution.integrity`. */
export function pnpmPins(text: string): Pin[] {
  const lock = parseYaml(text) as { packages: Record<string, { resolution?: { integrity?: string } }> };
  return Object.entries(lock.packages).map(([key, entry]) => {
    const at = key.indexOf('@', 1);
    return { name: key.slice(0, at), version: key.slice(at + 1), integrity: entry.resolution?.integrity ?? null, shasum: null };
  });
}

/** Every `packages` entry of a bun.lock: `[name@version, registry, info, integrity]`. */
export function bunPins(text: string): Pin[] {
  const lock = parseJsonc(text, [], { allowTrailingComma: true }) as { packages: Record<string, [string, string, unknown, string?]> };
  return Object.values(lock.packages).map(([spec, , , integrity]) => {
    const at = spec.indexOf('@', 1);
    return { name: spec.slice(0, at), version: spec.slice(at + 1), integrity: integrity ?? null, shasum: null };
  });
}

/** One release a uv.lock pins from an index: its distribution files (name, size, sha256). */
export interface UvPin {
  name: string;
  version: string;
  files: { filename: string; size: number; sha256: string; packagetype: 'sdist' | 'bdist_wheel' }[];
}

/** Every `[[package]]` of a uv.lock whose source is a registry (not the editable or virtual project). */
export function uvRegistryPins(text: string): UvPin[] {
  interface Dist {
    url: string;
    hash: string;
    size?: number;
  }
  const lock = parseToml(text) as unknown as { package: { name: string; version: string; source: Record<string, string>; sdist?: Dist; wheels?: Dist[] }[] };
  const file = (dist: Dist, packagetype: 'sdist' | 'bdist_wheel') => ({
    filename: dist.url.slice(dist.url.lastIndexOf('/') + 1),
    size: dist.size ?? 0,
    sha256: dist.hash.replace(/^sha256:/, ''),
    packagetype,
  });
  return lock.package
    .filter((p) => p.source.registry !== undefined)
    .map((p) => ({ name: p.name, version: p.version, files: [...(p.sdist ? [file(p.sdist, 'sdist')] : []), ...(p.wheels ?? []).map((w) => file(w, 'bdist_wheel'))] }));
}
