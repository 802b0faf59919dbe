/**
 * SPDX tag-value documents (SPDX 2.2 and 2.3, `*.spdx`), the syntax the SPDX specification
 * names first: read as the JSON reader reads the same document (spdx.ts, one shared function).
 * Each line is `Tag: value`; a value that opens with `<text>` runs, across lines, to its
 * `</text>` (its content never read as tags). A package starts at `PackageName:` and runs to
 * the next package, file (`FileName:`), snippet (`SnippetSPDXID:`) or licence (`LicenseID:`);
 * its `SPDXID`, `PackageVersion`, `PackageDownloadLocation` and its first
 * `ExternalRef: PACKAGE-MANAGER purl <purl>` (PACKAGE_MANAGER in 2.2) are read, and every
 * `Relationship: <element> <TYPE> <related>` line. No npm package reads this syntax (the SPDX
 * project's own readers are for Go, Python and Java): this is one linear pass. A tag a package
 * holds once given twice is refused (either value would be the file author's choice), and so
 * are an unclosed `<text>` and a line that is not a tag.
 */
import { LockfileError } from '../audit/types.js';
import { defineReader } from './define-reader.js';
import { spdxInput, type SpdxPackage } from './spdx.js';
import { quote } from './text.js';
import type { InputReader } from './types.js';

/** The tags that end the package before them: another package, a file, a snippet, an extracted licence. */
const SECTION_STARTS = new Set(['PackageName', 'FileName', 'SnippetSPDXID', 'LicenseID']);
/** The package tags read, each given at most once per package. */
const ONCE = new Set(['SPDXID', 'PackageVersion', 'PackageDownloadLocation']);

interface OpenPackage {
  line: number;
  name: string;
  fields: Map<string, { value: string; line: number }>;
  purl: { locator: string; line: number } | null;
}

export const readSpdxTagValue: InputReader = defineReader((text, file) => {
  let version: string | null = null;
  const packages: SpdxPackage[] = [];
  const relationships: { from: string; type: string; to: string }[] = [];
  let open: OpenPackage | null = null;
  const close = () => {
    if (open === null) return;
    const id = open.fields.get('SPDXID');
    if (id === undefined) throw new LockfileError(file, open.line, `package ${quote(open.name)} has no SPDXID`);
    const location = open.fields.get('PackageDownloadLocation');
    const purl = open.purl;
    packages.push({
      id: id.value,
      declared: { name: open.name, version: open.fields.get('PackageVersion')?.value },
      purl: purl === null ? null : { locator: purl.locator, line: () => purl.line },
      downloadLocation: location === undefined ? null : { url: location.value, line: location.line },
    });
    open = null;
  };

  let line = 0;
  for (let start = 0; start < text.length; ) {
    const lineStart = start;
    const newline = text.indexOf('\n', lineStart);
    const end = newline === -1 ? text.length : newline;
    line += 1;
    start = end + 1;
    const raw = text.slice(lineStart, end);
    const content = (lineStart === 0 && raw.startsWith('\uFEFF') ? raw.slice(1) : raw).trim();
    if (content === '' || content.startsWith('#')) continue;
    const colon = content.indexOf(':');
    const tag = colon > 0 ? content.slice(0, colon) : '';
    if (!/^[A-Za-z][A-Za-z0-9_-]*$/.test(tag)) throw new LockfileError(file, line, `not a tag-value line: ${quote(content)}`);
    let value = content.slice(colon + 1).trim();
    if (value.startsWith('<text>')) {
      // A multi-line value: its lines, tags or not, are its text up to `</text>`; the rest of that line is not read.
      const opened = lineStart + raw.indexOf('<text>') + '<text>'.length;
      const closing = text.indexOf('</text>', opened);
      if (closing === -1) throw new LockfileError(file, line, `a <text> value of ${quote(tag)} that is never closed by </text>`);
      value = text.slice(opened, closing).trim();
      for (let k = text.indexOf('\n', opened); k !== -1 && k < closing; k = text.indexOf('\n', k + 1)) line += 1;
      const after = text.indexOf('\n', closing);
      start = after === -1 ? text.length : after + 1;
    }
    if (tag === 'SPDXVersion') version ??= value;
    if (SECTION_STARTS.has(tag)) {
      close();
      if (tag === 'PackageName') open = { line, name: value, fields: new Map(), purl: null };
      continue;
    }
    if (tag === 'Relationship') {
      const [from, type, to] = value.split(/\s+/);
      if (from === undefined || type === undefined || to === undefined) throw new LockfileError(file, line, `a relationship needs an element, a type and a related element: ${quote(value)}`);
      relationships.push({ from, type, to });
      continue;
    }
    if (open === null) continue;
    const pkg: OpenPackage = open;
    if (ONCE.has(tag)) {
      if (pkg.fields.has(tag)) throw new LockfileError(file, line, `${tag} given twice for package ${quote(pkg.name)}`);
      pkg.fields.set(tag, { value, line });
    } else if (tag === 'ExternalRef' && pkg.purl === null) {
      const [, type, locator] = value.split(/\s+/);
      if (type === 'purl' && locator !== undefined) pkg.purl = { locator, line };
    }
  }
  close();
  if (version === null || !version.startsWith('SPDX-')) throw new LockfileError(file, null, 'not an SPDX tag-value document: no SPDXVersion: SPDX-… line');
  return spdxInput(file, { describes: [], relationships, packages });
});
