/**
 * Curated replacements for npm packages: the `module-replacements` project's "preferred"
 * manifest (module-replacements/preferred.json, a verbatim copy; its source, commit and
 * licence are in fixtures/PROVENANCE.md), read as data. A package it maps names the packages
 * it suggests instead (`documented` replacements: packages nerq can score as alternatives)
 * and the platform features that make it unnecessary (`native`), with its documentation link
 * (README, "Compared with its peers").
 */
import { z } from 'zod';
import manifest from './module-replacements/preferred.json' with { type: 'json' };
import { NPM_RULES } from './rules.js';

export interface CuratedReplacement {
  /** Packages suggested instead, in the manifest's order (each a valid npm name). */
  packages: string[];
  /** Platform features suggested instead (`fetch`, `util.styleText`), in the manifest's order. */
  native: string[];
  /** The replacement's documentation page, or null. */
  url: string | null;
}

/** The dataset, as its reports name it. */
export const CURATED_SOURCE = 'module-replacements';

const KnownUrl = z.union([z.string(), z.object({ type: z.string(), id: z.string() })]);
const ManifestSchema = z.object({
  mappings: z.record(z.string(), z.object({ moduleName: z.string(), replacements: z.array(z.string()), url: KnownUrl.optional() })),
  replacements: z.record(z.string(), z.object({ id: z.string(), type: z.string(), replacementModule: z.string().optional() })),
});

/** The documentation URL of a manifest link (the project's own `resolveDocUrl` rules). */
function docUrl(url: z.infer<typeof KnownUrl> | undefined): string | null {
  if (url === undefined) return null;
  if (typeof url === 'string') return /^https:\/\//.test(url) ? url : null;
  const id = encodeURI(url.id);
  if (url.type === 'mdn') return `https://developer.mozilla.org/en-US/docs/${id}`;
  if (url.type === 'node') return `https://nodejs.org/${id}`;
  if (url.type === 'e18e') return `https://e18e.dev/docs/replacements/${id}`;
  return null;
}

let parsed: z.infer<typeof ManifestSchema> | null | undefined;

function data(): z.infer<typeof ManifestSchema> | null {
  if (parsed === undefined) {
    const result = ManifestSchema.safeParse(manifest);
    parsed = result.success ? result.data : null;
  }
  return parsed;
}

/** What the curated data suggests instead of `name`, or null when it does not map it. */
export function curatedReplacementsFor(name: string): CuratedReplacement | null {
  const manifestData = data();
  if (manifestData === null || !Object.hasOwn(manifestData.mappings, name)) return null;
  const mapping = manifestData.mappings[name]!;
  const packages: string[] = [];
  const native: string[] = [];
  for (const id of mapping.replacements) {
    const replacement = Object.hasOwn(manifestData.replacements, id) ? manifestData.replacements[id] : undefined;
    if (replacement === undefined) continue;
    const module = replacement.replacementModule;
    if (replacement.type === 'documented' && module !== undefined && module !== name && NPM_RULES.registry.validName(module)) packages.push(module);
    else if (replacement.type === 'native') native.push(replacement.id);
  }
  return { packages, native, url: docUrl(mapping.url) };
}
