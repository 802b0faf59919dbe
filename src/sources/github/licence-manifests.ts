/**
 * The licence a repository's other manifests declare, read as text and never evaluated (pure):
 * setup.cfg `[metadata] license` (else `license_files` as a pointer), a `.gemspec`'s
 * `spec.license = "MIT"` / `s.licenses = ['MIT', 'Apache-2.0']` (string literals only), a .NET
 * project's `<PackageLicenseExpression>` (else `<PackageLicenseFile>` as a pointer), a Maven
 * pom.xml's `<licenses><license><name>` and a Gradle build's `pom { licenses { license { name … } } }`
 * (string literals only: gradle-licence.ts) or its `gradle.properties` `POM_LICENSE_NAME`, beside the Cargo.toml and composer.json of
 * repo-manifests.ts `declaredLicenseOf`.
 *
 * A name is an SPDX licence only when it is one as written or names one unambiguously (the PyPI
 * free-text reading, sources/pypi/license.ts `spdxFromText`: spdx-correct, and the version the id
 * carries stated in the text); otherwise it is kept as `unmapped`, never guessed. A declaration
 * that is code rather than a literal (`s.license = LICENSE`, `$(License)`) or a licence a pom
 * inherits from its parent is `unmapped` as not evaluated (docs/scoring.md, Compliance).
 */
import { isSpdxExpression, spdxFromText } from '../pypi/license.js';
import { gradleLicences, gradlePropertiesLicence } from './gradle-licence.js';
import { declaredLicenseOf } from './repo-manifests.js';
import { oneLine } from './request.js';
import { setupCfgSection } from './setup-cfg.js';
import { baseOf } from './tree-paths.js';

/** What a manifest declares: an SPDX expression (or `SEE LICENSE IN <file>`), none (null), or a declaration kept as written. */
export interface LicenceDeclaration {
  license: string | null;
  /** The declaration as written when it names no SPDX licence unambiguously, or is not evaluated. */
  unmapped?: string;
}

const MAX_TEXT = 200;
/** Suffix of a declaration that is code, not a literal: nerq does not evaluate it. */
export const NOT_EVALUATED = '(not evaluated)';

/** A .NET project file whose `<PackageLicenseExpression>` is read. */
const DOTNET_PROJECT = /(?:\.(?:csproj|fsproj|vbproj)|^Directory\.Build\.props)$/i;

function named(text: string): LicenceDeclaration {
  const name = oneLine(text.trim(), MAX_TEXT);
  if (name === '') return { license: null };
  if (isSpdxExpression(name)) return { license: name };
  const spdx = spdxFromText(name);
  return spdx === null ? { license: null, unmapped: name } : { license: spdx };
}

function notEvaluated(code: string): LicenceDeclaration {
  return { license: null, unmapped: `${oneLine(code.trim(), MAX_TEXT)} ${NOT_EVALUATED}` };
}

/**
 * setup.cfg `[metadata] license` (`license = file: X` and `license_files` / `license_file` as
 * pointers), each value read with its continuation lines as configparser reads it (setup-cfg.ts).
 * A value over several lines is an SPDX expression when its lines joined make one; otherwise it is
 * a licence text pasted in, kept unmapped as written: never its first line or first word.
 */
function setupCfg(source: string): LicenceDeclaration {
  const metadata = setupCfgSection(source, 'metadata');
  if (metadata === null) return { license: null };
  const field = (key: string): string | null => {
    const value = metadata.get(key)?.trim();
    return value === undefined || value === '' ? null : value;
  };
  const license = field('license');
  const file = /^file:\s*(\S[^\n]*)/i.exec(license ?? '');
  if (file?.[1] !== undefined) return { license: `SEE LICENSE IN ${oneLine(file[1].split(',')[0]?.trim() ?? '', MAX_TEXT)}` };
  if (license !== null && license.includes('\n')) {
    const joined = oneLine(license, MAX_TEXT);
    return isSpdxExpression(joined) ? { license: joined } : { license: null, unmapped: joined };
  }
  if (license !== null) return named(license);
  // `license_files = LICENSE`, or the list on the lines below it.
  const files = field('license_files') ?? field('license_file');
  const first = files?.split(/[,\s]+/).find((f) => f !== '');
  return first === undefined ? { license: null } : { license: `SEE LICENSE IN ${oneLine(first, MAX_TEXT)}` };
}

const RUBY_STRING = /^(?:"([^"\\#]*)"|'([^'\\]*)')$/;

/** A Ruby string literal's text, or null when the value is not one. */
function rubyString(value: string): string | null {
  const m = RUBY_STRING.exec(value.trim());
  return m === null ? null : (m[1] ?? m[2] ?? null);
}

/** A literal list of strings (`['MIT', "Apache-2.0"]`, `%w[MIT Apache-2.0]`), or null. */
function rubyStrings(value: string): string[] | null {
  const v = value.trim();
  const words = /^%w[[(]([^\])]*)[\])]$/.exec(v);
  if (words?.[1] !== undefined) return words[1].split(/\s+/).filter((w) => w !== '');
  if (!v.startsWith('[') || !v.endsWith(']')) return null;
  const items = v.slice(1, -1).split(',').map((i) => i.trim()).filter((i) => i !== '');
  const texts = items.map(rubyString);
  return texts.every((t): t is string => t !== null) ? texts : null;
}

/** A line without its trailing Ruby comment (blanks then `#`, not an interpolation's `#{`). */
function withoutRubyComment(line: string): string {
  for (let i = 1; i < line.length; i++) {
    if (line[i] !== '#' || line[i + 1] === '{' || (line[i - 1] !== ' ' && line[i - 1] !== '\t')) continue;
    let cut = i;
    while (cut > 0 && (line[cut - 1] === ' ' || line[cut - 1] === '\t')) cut--;
    return line.slice(0, cut);
  }
  return line;
}

/**
 * The value of a gemspec's first `<receiver>.license = …` / `.licenses = …`: a list up to its
 * `]` (it may span lines), else the rest of the line without its comment. Read by index, in time
 * linear in the file (the file is a stranger's: docs/security.md, super-linear parsing).
 */
function gemspecValue(source: string): string | null {
  const head = /^[ \t]*\w+\.licen[sc]es?[ \t]*=[ \t]*/m.exec(source);
  if (head === null) return null;
  const at = head.index + head[0].length;
  const eol = source.indexOf('\n', at);
  const line = source.slice(at, eol === -1 ? undefined : eol);
  if (source[at] === '[') {
    const close = source.indexOf(']', at);
    const list = close === -1 ? '' : source.slice(at, close + 1);
    if (list !== '' && !list.includes('#')) return list;
  }
  const value = withoutRubyComment(line).trimEnd();
  return value === '' ? null : value;
}

/** A gemspec's `<receiver>.license = …` / `.licenses = …`, read as text: string literals only (a list may span lines). */
function gemspec(source: string): LicenceDeclaration {
  const value = gemspecValue(source);
  if (value === null) return { license: null };
  const one = rubyString(value);
  const all = one === null ? rubyStrings(value) : [one];
  if (all === null) return notEvaluated(value);
  const licences = all.map((l) => l.trim()).filter((l) => l !== '');
  if (licences.length === 0) return { license: null };
  // RubyGems: a gem under several licences may be used under any of them.
  const read = licences.map(named);
  if (read.some((r) => r.license === null)) return { license: null, unmapped: oneLine(licences.join(', '), MAX_TEXT) };
  return { license: read.length === 1 ? (read[0]?.license ?? null) : `(${read.map((r) => r.license).join(' OR ')})` };
}

/** The text without its `<!-- … -->` comments (an unclosed one runs to the end), by index: linear. */
function withoutXmlComments(source: string): string {
  let out = '';
  let from = 0;
  for (;;) {
    const open = source.indexOf('<!--', from);
    if (open === -1) return out + source.slice(from);
    out += source.slice(from, open);
    const close = source.indexOf('-->', open + 4);
    if (close === -1) return out;
    from = close + 3;
  }
}

/**
 * The text of the first `<tag>…</tag>` in `xml` (the tag matched without regard to case, with or
 * without attributes) from `from` on, and where it ends; undefined when there is none or it is
 * not closed. `lower` is `xml` lower-cased once. Read by index, each search starting where the
 * last one stopped, so a file of unclosed or look-alike tags takes linear time.
 */
function elementText(xml: string, lower: string, tag: string, from = 0): { text: string; end: number } | undefined {
  const name = tag.toLowerCase();
  let at = from;
  for (;;) {
    const open = lower.indexOf(`<${name}`, at);
    if (open === -1) return undefined;
    const after = lower[open + name.length + 1];
    if (after === '>' || after === ' ' || after === '\t' || after === '\n' || after === '\r') {
      const start = lower.indexOf('>', open);
      const close = start === -1 ? -1 : lower.indexOf(`</${name}>`, start);
      return close === -1 ? undefined : { text: xml.slice(start + 1, close), end: close + name.length + 3 };
    }
    at = open + 1;
  }
}

/** An XML element's text as written: CDATA opened, the five entities decoded (a capped slice: never more than a name needs). */
function xmlText(value: string): string {
  return value
    .slice(0, MAX_TEXT * 4)
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();
}

/** A .NET project's `<PackageLicenseExpression>` (a NuGet SPDX expression), else `<PackageLicenseFile>`. */
function dotnetProject(source: string): LicenceDeclaration {
  const xml = withoutXmlComments(source);
  const lower = xml.toLowerCase();
  const expression = elementText(xml, lower, 'PackageLicenseExpression')?.text;
  if (expression !== undefined) {
    const text = xmlText(expression);
    return text.includes('$(') ? notEvaluated(text) : named(text);
  }
  const file = elementText(xml, lower, 'PackageLicenseFile')?.text;
  return file === undefined || xmlText(file) === '' ? { license: null } : { license: `SEE LICENSE IN ${oneLine(xmlText(file), MAX_TEXT)}` };
}

/** The `<name>` of each `<license>…</license>` in a `<licenses>` block's text, in order (each name looked for within its own licence: linear). */
function pomLicenceNames(block: string): string[] {
  const lower = block.toLowerCase();
  const names: string[] = [];
  for (let licence = elementText(block, lower, 'license'); licence !== undefined; licence = elementText(block, lower, 'license', licence.end)) {
    const name = elementText(licence.text, licence.text.toLowerCase(), 'name');
    if (name !== undefined) names.push(xmlText(name.text));
  }
  return names;
}

/**
 * A pom's `<licenses>`: one `<license><name>` mapped when it names an SPDX licence unambiguously;
 * several are kept unmapped (Maven does not say whether they are alternatives or all apply); none
 * with a `<parent>` is inherited, which nerq does not read.
 */
function pom(source: string): LicenceDeclaration {
  const xml = withoutXmlComments(source);
  const lower = xml.toLowerCase();
  const block = elementText(xml, lower, 'licenses');
  if (block === undefined) return lower.includes('<parent>') ? notEvaluated('inherited from the parent POM') : { license: null };
  const names = pomLicenceNames(block.text).filter((n) => n !== '');
  if (names.length === 0) return { license: null };
  if (names.length > 1) return { license: null, unmapped: oneLine(names.join(', '), MAX_TEXT) };
  return named(names[0] ?? '');
}

/**
 * A Gradle build's POM licences, as a pom.xml's are read: one literal name mapped when it names an
 * SPDX licence unambiguously, several kept unmapped, a name that is code not evaluated.
 */
function gradle(source: string): LicenceDeclaration {
  const read = gradleLicences(source);
  if ('code' in read) return notEvaluated(read.code);
  const names = read.names.map((n) => n.trim()).filter((n) => n !== '');
  if (names.length === 0) return { license: null };
  if (names.length > 1) return { license: null, unmapped: oneLine(names.join(', '), MAX_TEXT) };
  return named(names[0] ?? '');
}

/**
 * What a manifest read for its licence alone declares (repo-tree.ts `licenseManifests`);
 * undefined when the file does not parse.
 */
export function licenceDeclarationOf(path: string, source: string): LicenceDeclaration | undefined {
  const base = baseOf(path);
  if (base === 'setup.cfg') return setupCfg(source);
  if (/\.gemspec$/i.test(base)) return gemspec(source);
  if (DOTNET_PROJECT.test(base)) return dotnetProject(source);
  if (base === 'pom.xml') return pom(source);
  if (base === 'build.gradle' || base === 'build.gradle.kts') return gradle(source);
  if (base === 'gradle.properties') return named(gradlePropertiesLicence(source) ?? '');
  const license = declaredLicenseOf(path, source);
  return license === undefined ? undefined : { license };
}
