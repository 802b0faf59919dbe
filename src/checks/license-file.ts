/**
 * license-file: whether the package ships its licence text, and whether that text is the
 * licence the metadata declares. npm: the licence files in the tarball, whose text is
 * recognised; PyPI: the PEP 639 `license_files` its metadata lists (their text is not read).
 */
import type { EvidenceValue } from './define.js';
import { defineCheck } from './define.js';
import type { DocumentsFacts } from './views/documents.js';
import { licenseKey, licensesInFile, readDeclaredLicense } from './lib/spdx.js';
import { truncate } from './lib/text.js';

/** Files listed in a PyPI project's metadata, at most this many kept in evidence. */
const MAX_LISTED_FILES = 20;

/** The message for no licence file, per ecosystem. */
const MISSING: Readonly<Record<DocumentsFacts['ecosystem'], 'missing' | 'missing-repository'>> = { npm: 'missing', pypi: 'missing', github: 'missing-repository' };

export default defineCheck({
  id: 'license-file',
  dimension: 'compliance',
  weight: 2,
  needs: ['documents'],
  optional: ['release'],
  title: 'Licence file',
  description:
    'Looks for licence files (LICENSE, LICENCE, COPYING, MIT-LICENSE…) in the npm tarball and compares the licences their text holds with the declared one (corrected if needed; GPL `-only`/`-or-later` variants match; a file holding several texts, as a dual-licence file does, matches a declaration of any of them); for PyPI reads the PEP 639 `license_files` of the metadata, which the build backend includes in the distributions (their text is not read). ' +
    'A `github:` target reads the licence files at the root of its repository and compares them with the licence its manifests declare (without a manifest licence, with the licence GitHub detects — at a pinned ref only its detection at that commit, verified by the licence file\'s blob, never the default branch\'s). ' +
    'Consistent (or declared as `SEE LICENSE IN <file>`), or PyPI files listed, scores 100; a file whose text is not recognised, or that cannot be compared (no usable declaration, registry unavailable), 70; a contradiction 40; no file 20; unknown for PyPI metadata without PEP 639 licence files, and when the npm tarball could not be read.',
  messages: {
    consistent: 'Licence file {files} matches the declared {declaredWords}',
    referenced: 'Licence file {files} ({found}) is the one the manifest points to',
    unrecognised: 'Licence file present ({files}); text not recognised',
    contradicts: 'Licence file says {found} but the manifest declares {declaredWords}',
    undeclared: 'Licence file says {found} but the manifest declares no licence',
    'not-compared': 'Licence file says {found}; no manifest nerq reads for a licence is there to compare with, and GitHub identifies none',
    'not-compared-ref': 'Licence file says {found}; no manifest nerq reads for a licence is there to compare with, and the licence GitHub detects is the default branch\'s ({defaultBranch}), not the pinned ref\'s',
    'declaration-unparsed': "Licence file says {found}; the declared licence '{declared}' is not an SPDX expression to compare with",
    'registry-unavailable': 'Licence file says {found}; the declared licence is unavailable for comparison',
    missing: 'No licence file in the package',
    listed: 'Licence files listed in the PyPI metadata (PEP 639): {files}',
    'not-listed': 'Licence files unknown: the PyPI metadata lists none (no PEP 639 License-File fields)',
    'no-tarball': 'Licence files unknown: the package tarball could not be read',
    'missing-repository': 'No licence file at the root of the repository',
    unreadable: 'Licence files unknown: {reason}',
  },
  evaluate: ({ documents, release }) => {
    const repository = documents.ecosystem === 'github';
    const declaredText = repository ? repositoryDeclaration(documents) : (release?.license.text ?? null);
    const unknown = documents.unknown?.licenseFiles;
    if (unknown !== undefined) {
      const unread: Record<string, EvidenceValue> = { files: null, reason: unknown };
      return { score: null, messageId: 'unreadable', data: unread };
    }
    if (documents.licenseFiles === null) {
      return { score: null, messageId: documents.source === 'packument' ? 'no-tarball' : 'not-listed', data: { files: null } };
    }
    const files = documents.licenseFiles.map((f) => f.path);
    // Every licence the files hold: a dual-licence file (ISC and MIT) matches either declaration.
    const found = [...new Set(documents.licenseFiles.flatMap(licensesInFile))];
    const data: Record<string, EvidenceValue> = {
      files,
      found,
      declared: declaredText === null ? null : truncate(declaredText.trim(), 200),
    };
    if (files.length === 0) return { score: 20, messageId: MISSING[documents.ecosystem], data };
    switch (documents.ecosystem) {
      // PyPI's metadata lists the licence files (PEP 639): listed, their texts not compared.
      case 'pypi': {
        const listed = files.slice(0, MAX_LISTED_FILES).map((f) => truncate(f, 200));
        return { score: 100, messageId: 'listed', data: { ...data, files: listed } };
      }
      case 'npm':
      case 'github':
        break;
      default:
        return documents.ecosystem satisfies never;
    }
    if (found.length === 0) return { score: 70, messageId: 'unrecognised', data };
    if (release === undefined && !repository) return { score: 70, messageId: 'registry-unavailable', data };
    // A repository with no manifest that can declare a licence (go.mod declares none; a Gradle build
    // without a literal POM licence names none) and no licence GitHub identifies: a file that cannot be compared, not a missing declaration.
    // At a pinned ref the licence GitHub detects is the default branch's, never compared with the ref's files (unless verified at the commit: documents' detectedLicense).
    if (repository && declaredText === null && (documents.manifestLicenses ?? []).length === 0) {
      if (documents.detectedElsewhere === undefined) return { score: 70, messageId: 'not-compared', data };
      data.defaultBranch = documents.detectedElsewhere.defaultBranch;
      return { score: 70, messageId: 'not-compared-ref', data };
    }
    // A declaration nerq does not map to SPDX (a Maven licence name, a gemspec licence that is code) is kept as written, never guessed.
    const unmapped = repository && declaredText === null ? (documents.manifestLicenses ?? []).find((m) => m.unmapped !== undefined)?.unmapped : undefined;
    if (unmapped !== undefined) return { score: 70, messageId: 'declaration-unparsed', data: { ...data, declared: truncate(unmapped, 200) } };
    const declared = readDeclaredLicense(declaredText);
    switch (declared.kind) {
      case 'none':
        return { score: 70, messageId: 'undeclared', data };
      case 'see-file':
        return { score: 100, messageId: 'referenced', data };
      case 'invalid':
        return { score: 70, messageId: 'declaration-unparsed', data };
      case 'unlicensed':
        return { score: 40, messageId: 'contradicts', data: { ...data, declaredWords: String(data.declared) } };
      case 'spdx':
      case 'corrected': {
        // A corrected declaration is a guess (licence-declared says "probably"): the words say what the manifest wrote.
        data.declaredWords = declared.kind === 'corrected' ? `'${String(data.declared)}' (read as ${declared.expression})` : declared.expression;
        data.declared = declared.expression;
        const keys = new Set(declared.ids.map(licenseKey));
        const consistent = found.some((id) => keys.has(licenseKey(id)));
        return consistent ? { score: 100, messageId: 'consistent', data } : { score: 40, messageId: 'contradicts', data };
      }
    }
  },
});

/**
 * A repository target's declaration: the first licence its manifests declare, else the licence
 * GitHub detects (absent at a pinned ref: the default branch's), else a manifest's `SEE LICENSE IN <file>` pointer (a pointer names no licence
 * to compare the files with, so a detected licence comes first).
 */
function repositoryDeclaration(documents: DocumentsFacts): string | null {
  const declared = (documents.manifestLicenses ?? []).flatMap((m) => (m.license === null ? [] : [m.license]));
  const named = declared.find((l) => readDeclaredLicense(l).kind !== 'see-file');
  if (named !== undefined) return named;
  const detected = documents.detectedLicense ?? null;
  if (detected !== null && detected.toUpperCase() !== 'NOASSERTION') return detected;
  return declared[0] ?? null;
}
