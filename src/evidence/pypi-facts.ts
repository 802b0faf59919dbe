/**
 * Facts about a PyPI project and its resolved release (the PyPI JSON API, plus the Simple API's
 * JSON form for PEP 792 project status and PEP 740 provenance).
 *
 * Conventions as everywhere in evidence: `null` = PyPI did not tell us (unknown); `false`,
 * `0`, `[]` = it told us and the thing is absent.
 */
import { z } from 'zod';
import { README_TAIL_FIELDS } from './readme-file.js';
import { RepositoryRefSchema } from './repository-ref.js';

export const PypiReleaseSchema = z.object({
  version: z.string(),
  /** Earliest upload time of the release's files (ISO 8601 UTC); null when it has no files. */
  time: z.string().nullable(),
  /** PEP 440 pre-release or development release. */
  prerelease: z.boolean(),
  /** Every file of the release is yanked (PEP 592: yanking is per file). */
  yanked: z.boolean(),
  yankedReason: z.string().nullable(),
  files: z.number().int().nonnegative(),
});
export type PypiRelease = z.infer<typeof PypiReleaseSchema>;

export const PypiFileSchema = z.object({
  filename: z.string(),
  /** `sdist`, `bdist_wheel`, `bdist_egg`, … as PyPI reports it. */
  packagetype: z.string(),
  size: z.number().int().nonnegative(),
  uploadTime: z.string().nullable(),
  yanked: z.boolean(),
  /** PEP 740: the file has a provenance object; null when PyPI did not say. */
  hasProvenance: z.boolean().nullable(),
  /**
   * The file's SHA-256 as PyPI publishes it (`digests.sha256`, lower-case hex): what a lockfile's
   * pinned hash is compared with (docs/security.md, "Lockfile injection"). Null when PyPI gave
   * none; absent in evidence saved before nerq recorded it.
   */
  sha256: z.string().nullable().optional(),
  /**
   * Where PyPI serves the file (the JSON API's `url`); null when it gave none; absent in evidence
   * saved before nerq recorded it.
   */
  url: z.string().nullable().optional(),
});
export type PypiFile = z.infer<typeof PypiFileSchema>;

export const PypiLicenseSchema = z.object({
  /** PEP 639 `license_expression`, as given. */
  expression: z.string().nullable(),
  /** `License ::` trove classifiers, as given. */
  classifiers: z.array(z.string()),
  /** The free-text `license` field, capped at 2,000 characters; null when empty. */
  text: z.string().nullable(),
  /**
   * The licence as an SPDX expression, from the expression first, then the classifiers, then the
   * free text — only where the mapping is unambiguous; null otherwise.
   */
  spdx: z.string().nullable(),
  /** Which field `spdx` came from (null when none mapped). */
  source: z.enum(['expression', 'classifier', 'text']).nullable(),
  /** PEP 639 `license_files` as listed in the metadata; null when the metadata has none. */
  files: z.array(z.string()).nullable(),
});
export type PypiLicense = z.infer<typeof PypiLicenseSchema>;

/**
 * A `requires_dist` entry that is a PEP 508 direct reference (`name @ <url>`): pip fetches it from
 * that URL, and no index vouches for it.
 */
export const PypiDirectReferenceSchema = z.object({
  name: z.string(),
  /** The URL as written, without user name, password or query string (util/url-credentials.ts), capped. */
  url: z.string(),
  /** `git` (`git+…`), `vcs` (`hg+`, `svn+`, `bzr+`), `file` (`file:` path), `url` (a download). */
  kind: z.enum(['git', 'vcs', 'file', 'url']),
  /** Only installed with an extra (an `extra == …` marker); other markers still install it by default. */
  extraOnly: z.boolean(),
});
export type PypiDirectReference = z.infer<typeof PypiDirectReferenceSchema>;

/** A `.pth` file a wheel installs at the root of site-packages (docs/checks.md, `startup-hooks`). */
export const PypiStartupHookSchema = z.object({
  /** Its path in the wheel (at the root, or under `<name>.data/purelib|platlib/`). */
  path: z.string(),
  /** Uncompressed size as the archive states it. */
  size: z.number().int().nonnegative(),
  /** Its text (UTF-8, capped); null when it was not read (`unread` says why). */
  text: z.string().nullable(),
  /** The text was cut at the cap. */
  truncated: z.boolean(),
  unread: z.string().nullable(),
});
export type PypiStartupHook = z.infer<typeof PypiStartupHookSchema>;

/**
 * A top-level module of a wheel (a package's `__init__.py`, or a single-module `.py` file) that
 * Python runs when the package is imported, as classified when it was read (docs/checks.md,
 * `import-time-code`): the text itself is not kept, only what the classifier found.
 */
export const PypiImportFileSchema = z.object({
  /** Its path in the wheel. */
  path: z.string(),
  /** Uncompressed size as the archive states it. */
  size: z.number().int().nonnegative(),
  /** Why it was not read (over a cap, does not inflate, odd compression); null when read. */
  unread: z.string().nullable(),
  /** Labels of the suspicious shapes the classifier found (checks/lib/python-code.ts); empty when none or unread. */
  flags: z.array(z.string()),
  /** Short single-line excerpts of the lines that carry them (at most 3, each capped). */
  excerpts: z.array(z.string()),
});
export type PypiImportFile = z.infer<typeof PypiImportFileSchema>;

/** The import-time modules of a wheel: those read (or named unread), and how many more were left. */
export const PypiImportCodeSchema = z.object({
  files: z.array(PypiImportFileSchema),
  /** Candidates past the file count or byte budget (pypi/wheel-hooks.ts, WHEEL_CAPS), not read. */
  skipped: z.number().int().nonnegative(),
});
export type PypiImportCode = z.infer<typeof PypiImportCodeSchema>;

/**
 * What installing the resolved release puts in place that Python runs by itself: the `.pth`
 * files of the wheel pip would most likely install (docs/checks.md, `startup-hooks`), and the
 * top-level modules an `import` runs (`import-time-code`).
 */
export const PypiWheelContentsSchema = z.object({
  /** The wheel read (its file name); null when the release has no wheel. */
  wheel: z.string().nullable(),
  /** Why its contents are unknown (unavailable, over a cap, not a zip); null when read. */
  unavailable: z.string().nullable(),
  /** Archive size, when known. */
  size: z.number().int().nonnegative().nullable(),
  /** Bytes fetched to read it (range requests), for the record. */
  bytesRead: z.number().int().nonnegative(),
  /** Entries in the archive. */
  entries: z.number().int().nonnegative(),
  /** The `.pth` files at a site-packages root, at most MAX_HOOKS (pypi/wheel-hooks.ts). */
  hooks: z.array(PypiStartupHookSchema),
  /** `.pth` files past the number read. */
  hooksUnread: z.number().int().nonnegative(),
  /** The top-level modules an import runs; absent in evidence saved before nerq read them (`import-time-code` is then unknown). */
  importCode: PypiImportCodeSchema.optional(),
});
export type PypiWheelContents = z.infer<typeof PypiWheelContentsSchema>;

/**
 * The build files of an sdist-only release (docs/checks.md, `wheels-published`): what pip runs
 * when it builds the release on the installing machine.
 */
export const PypiSdistBuildSchema = z.object({
  /** The sdist read (its file name); null when the release has none. */
  sdist: z.string().nullable(),
  /** Why its files are unknown (unavailable, over a cap, not a .tar.gz); null when read. */
  unavailable: z.string().nullable(),
  /** The top-level `setup.py`, `pyproject.toml`, `setup.cfg` found, texts capped. */
  files: z.array(z.object({ path: z.string(), text: z.string(), truncated: z.boolean() })),
});
export type PypiSdistBuild = z.infer<typeof PypiSdistBuildSchema>;

export const PypiFactsSchema = z.object({
  /** The project name as PyPI spells it (`info.name`). */
  name: z.string(),
  /** The resolved version. */
  version: z.string(),
  /** Every release, oldest first (by upload time, else PEP 440 order). */
  releases: z.array(PypiReleaseSchema),
  /** The newest release that is neither a pre-release nor yanked (what pip installs by default). */
  latest: z.string().nullable(),
  summary: z.string().nullable(),
  /**
   * The long description (the project's README on PyPI), capped at 256 KiB (`length`: its whole
   * length in characters); past that cut, the rest read for its headings and code blocks
   * (evidence/readme-file.ts).
   */
  description: z
    .object({
      text: z.string(),
      contentType: z.string().nullable(),
      length: z.number().int().nonnegative(),
      truncated: z.boolean(),
      ...README_TAIL_FIELDS,
    })
    .nullable(),
  keywords: z.array(z.string()),
  license: PypiLicenseSchema,
  classifiers: z.array(z.string()),
  /** `Development Status :: …` value, e.g. `5 - Production/Stable`, `7 - Inactive`; null when absent. */
  developmentStatus: z.string().nullable(),
  /** `Typing :: Typed` classifier present. */
  typed: z.boolean(),
  requiresPython: z.string().nullable(),
  /** Runtime requirements (`requires_dist` without an `extra ==` marker): name and specifier. */
  dependencies: z.array(z.object({ name: z.string(), specifier: z.string(), marker: z.string().nullable() })),
  /** Requirements only pulled in by extras. */
  optionalDependencies: z.number().int().nonnegative(),
  /**
   * Requirements (runtime and extra-only) that are direct references. Absent from evidence saved
   * before they were recorded: the runtime ones are then read from `dependencies` (views/release.ts).
   */
  directReferences: z.array(PypiDirectReferenceSchema).optional(),
  /** `project_urls` plus `home_page`, keys as given (Homepage, Source, Documentation, Changelog, …). */
  projectUrls: z.record(z.string(), z.string()),
  homepage: z.string().nullable(),
  documentationUrl: z.string().nullable(),
  changelogUrl: z.string().nullable(),
  issuesUrl: z.string().nullable(),
  /** The source repository found in project_urls / home_page (GitHub first), or null. */
  repository: RepositoryRefSchema.nullable(),
  /** An author or maintainer (name or e-mail) is given. */
  hasAuthor: z.boolean(),
  /** Number of PyPI owners/maintainers (`ownership.roles`); null when the API did not give it. */
  owners: z.number().int().nonnegative().nullable(),
  /** PEP 792 project status (`active`, `archived`, `quarantined`, `deprecated`) and its reason; null = not given. */
  status: z.object({ status: z.string(), reason: z.string().nullable() }).nullable(),
  /** The resolved release's files. */
  files: z.array(PypiFileSchema),
  /** The resolved release has an sdist and no wheel (installing it runs its build backend). */
  sdistOnly: z.boolean(),
  /**
   * The `.pth` startup hooks of the wheel pip would most likely install; absent in evidence saved
   * before nerq read wheels (the `startup-hooks` check is then unknown).
   */
  wheelContents: PypiWheelContentsSchema.optional(),
  /**
   * The sdist's build files, read only for an sdist-only release; absent otherwise and in evidence
   * saved before nerq read sdists.
   */
  sdistBuild: PypiSdistBuildSchema.optional(),
  /** The resolved release is yanked (all its files are), with PyPI's reason. */
  yanked: z.boolean(),
  yankedReason: z.string().nullable(),
  /** The JSON API's `vulnerabilities` list for the resolved release (kept as facts; OSV is the scored source). */
  vulnerabilities: z.array(
    z.object({
      id: z.string(),
      aliases: z.array(z.string()),
      summary: z.string().nullable(),
      fixedIn: z.array(z.string()),
      withdrawn: z.string().nullable(),
    }),
  ),
});
export type PypiFacts = z.infer<typeof PypiFactsSchema>;
