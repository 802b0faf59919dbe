/**
 * zod schemas of the PyPI answers nerq reads, after the shapes PyPI serves
 * (PyPI's JSON API documentation, the Simple API JSON of PEP 691 / 700 / 740 / 792, and the
 * Integrity API of PEP 740), and a parser that turns a body into data or a one-line reason.
 *
 * The schemas are lenient where PyPI itself is (fields that are null, missing in older
 * answers or added by later PEPs: `nullish`) and strict where nerq relies on a field (a file's
 * name, type and size; the info's name and version). Unknown keys are ignored.
 */
import { z } from 'zod';
import { joinUrl } from '../http/url.js';

/** Project JSON of big projects (every file of every release) reaches tens of MB. */
export const PROJECT_JSON_MAX_BYTES = 64 * 1024 * 1024;

/** `GET {pypi}/pypi/<project>/json`. */
export function projectJsonUrl(pypiBase: string, project: string): string {
  return joinUrl(pypiBase, 'pypi', project, 'json');
}

/** `null`, missing and `""` all read as null. */
const text = z
  .string()
  .nullish()
  .transform((value) => (value === undefined || value === null || value === '' ? null : value));

/** One distribution file in the JSON API (`releases[v][]`, `urls[]`). */
export const PypiJsonFileSchema = z.object({
  filename: z.string().min(1),
  packagetype: z.string(),
  size: z.number().int().nonnegative(),
  /** Recorded answers before 2020 lack the ISO field; `upload_time` is UTC without a zone. */
  upload_time_iso_8601: text,
  upload_time: text,
  yanked: z.boolean().nullish(),
  yanked_reason: text,
  /** Where the file is served (an absolute URL); a malformed one is read as missing. */
  url: z.string().url().optional().catch(undefined),
  /** The file's digests (hex); a malformed one is read as missing, not as a reason to drop the answer. */
  digests: z.object({ sha256: z.string().optional().catch(undefined) }).nullish().catch(null),
});
export type PypiJsonFile = z.output<typeof PypiJsonFileSchema>;

export const PypiJsonInfoSchema = z.object({
  name: z.string().min(1),
  version: z.string().min(1),
  summary: text,
  description: z.string().nullish(),
  description_content_type: text,
  keywords: z.union([z.string(), z.array(z.string())]).nullish(),
  license: text,
  license_expression: text,
  license_files: z.array(z.string()).nullish(),
  classifiers: z.array(z.string()).nullish(),
  requires_python: text,
  requires_dist: z.array(z.string()).nullish(),
  project_urls: z.record(z.string(), z.string().nullable()).nullish(),
  home_page: text,
  docs_url: text,
  bugtrack_url: text,
  author: text,
  author_email: text,
  maintainer: text,
  maintainer_email: text,
  yanked: z.boolean().nullish(),
  yanked_reason: text,
});
export type PypiJsonInfo = z.output<typeof PypiJsonInfoSchema>;

/** An entry of the JSON API's `vulnerabilities` list (PyPI's own OSV import). */
export const PypiJsonVulnerabilitySchema = z.object({
  id: z.string().min(1),
  aliases: z.array(z.string()).nullish(),
  summary: text,
  details: text,
  fixed_in: z.array(z.string()).nullish(),
  withdrawn: text,
});

const OwnershipSchema = z.object({
  organization: text,
  roles: z.array(z.object({ role: z.string(), user: z.string() })).nullish(),
});

/** `GET /pypi/<project>/json`: the latest release's info, every release's files. */
export const PypiProjectJsonSchema = z.object({
  info: PypiJsonInfoSchema,
  releases: z.record(z.string(), z.array(PypiJsonFileSchema)),
  urls: z.array(PypiJsonFileSchema).nullish(),
  vulnerabilities: z.array(PypiJsonVulnerabilitySchema).nullish(),
  ownership: OwnershipSchema.nullish(),
});
export type PypiProjectJson = z.output<typeof PypiProjectJsonSchema>;

/** `GET /pypi/<project>/<version>/json`: that release's info and files (no `releases` map). */
export const PypiVersionJsonSchema = z.object({
  info: PypiJsonInfoSchema,
  urls: z.array(PypiJsonFileSchema),
  vulnerabilities: z.array(PypiJsonVulnerabilitySchema).nullish(),
  ownership: OwnershipSchema.nullish(),
});
export type PypiVersionJson = z.output<typeof PypiVersionJsonSchema>;

/**
 * What dependency resolution needs of a project JSON: the release keys and their files'
 * yanked flags (the rest of a dependency's answer is not read, so not validated either).
 */
export const PypiReleasesOnlySchema = z.object({
  releases: z.record(z.string(), z.array(z.object({ yanked: z.boolean().nullish() }))),
});

/** The Simple API's JSON form (`Accept: application/vnd.pypi.simple.v1+json`). */
export const SIMPLE_JSON_ACCEPT = 'application/vnd.pypi.simple.v1+json';

export const PypiSimpleJsonSchema = z.object({
  meta: z.object({ 'api-version': z.string() }),
  name: z.string(),
  files: z.array(
    z.object({
      filename: z.string().min(1),
      /** PEP 740 (api-version 1.3): a URL, or null when the file has none; missing before 1.3. */
      provenance: z.string().nullable().optional(),
    }),
  ),
  /** PEP 792 (api-version 1.4); the spec's prose calls the key `state`, PyPI and its example `status`. */
  'project-status': z
    .object({ status: z.string().optional(), state: z.string().optional(), reason: text })
    .nullish(),
});
export type PypiSimpleJson = z.output<typeof PypiSimpleJsonSchema>;

/** `GET /integrity/<project>/<version>/<filename>/provenance` (PEP 740 provenance object). */
export const PypiProvenanceSchema = z.object({
  version: z.number().int(),
  attestation_bundles: z.array(
    z.object({
      publisher: z.looseObject({ kind: z.string() }),
      attestations: z.array(
        z.object({
          version: z.number().int().optional(),
          envelope: z.object({ statement: z.string(), signature: z.string().optional() }),
        }),
      ),
    }),
  ),
});
export type PypiProvenance = z.output<typeof PypiProvenanceSchema>;

/** pypistats `GET /api/packages/<project>/recent`. */
export const PypistatsRecentSchema = z.object({
  data: z.object({
    last_day: z.number().int().nonnegative().nullish(),
    last_week: z.number().int().nonnegative().nullish(),
    last_month: z.number().int().nonnegative().nullish(),
  }),
});

/** Parse a JSON body with `schema`: the data, or a one-line reason naming the first bad field. */
export function parseJsonBody<T extends z.ZodType>(body: Buffer, schema: T): { ok: true; data: z.output<T> } | { ok: false; reason: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed JSON' };
  }
  const result = schema.safeParse(parsed);
  if (result.success) return { ok: true, data: result.data };
  const issue = result.error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? 'the body' : issue.path.map(String).join('.');
  return { ok: false, reason: `unexpected JSON shape at ${truncate(where, 80)}: ${truncate(issue?.message ?? 'invalid', 120)}` };
}

function truncate(value: string, max: number): string {
  const oneLine = value.replace(/\s+/g, ' ');
  return oneLine.length <= max ? oneLine : `${oneLine.slice(0, max - 1)}…`;
}
