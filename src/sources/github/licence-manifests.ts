/**
 * The licence a repository's other manifests declare, read as text and never evaluated (pure):
 * setup.cfg `[metadata] license` (else `license_files` as a pointer), a `.gemspec`'s
 * `spec.license = "MIT"` / `s.licenses = ['MIT', 'Apache-2.0']` (string literals only), a .NET
 * project's `<PackageLicenseExpression>` (else `<PackageLicenseFile>` as a pointer) and a Maven
 * pom.xml's `<licenses><license><name>`, beside the Cargo.toml and composer.json of
 * repo-manifests.ts `declaredLicenseOf`.
 *
 * A name is an SPDX licence only when it is one as written or names one unambiguously (the PyPI
 * free-text reading, sources/pypi/license.ts `spdxFromText`: spdx-correct, and the version the id
 * carries stated in the text); otherwise it is kept as `unmapped`, never guessed. A declaration
 * that is code rather than a literal (`s.license = LICENSE`, `$(License)`) or a licence a pom
 * inherits from its parent is `unmapped` as not evaluated (docs/scoring.md, Compliance).
 */
import ini from 'ini';
import { isSpdxExpression, spdxFromText } from '../pypi/license.js';
import { declaredLicenseOf } from './repo-manifests.js';
import { oneLine } from './request.js';
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

/** setup.cfg `[metadata] license` (`license = file: X` and `license_files` / `license_file` as pointers). */
function setupCfg(source: string): LicenceDeclaration | undefined {
  let parsed: Record<string, unknown>;
  try {
    parsed = ini.parse(source);
  } catch {
    return undefined;
  }
  const metadata = parsed.metadata;
  if (typeof metadata !== 'object' || metadata === null) return { license: null };
  const field = (key: string): string | null => {
    const value = (metadata as Record<string, unknown>)[key];
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
  };
  const license = field('license');
  const file = /^file:\s*(\S.*)$/i.exec(license ?? '');
  if (file?.[1] !== undefined) return { license: `SEE LICENSE IN ${oneLine(file[1].split(',')[0]?.trim() ?? '', MAX_TEXT)}` };
  if (license !== null) return named(license);
  // `license_files = LICENSE` (or the list on the lines below it, which ini reads as keys of their own).
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
  const list = /^\[([\s\S]*)\]$/.exec(v);
  if (list?.[1] === undefined) return null;
  const items = list[1].split(',').map((i) => i.trim()).filter((i) => i !== '');
  const texts = items.map(rubyString);
  return texts.every((t): t is string => t !== null) ? texts : null;
}

/** A gemspec's `<receiver>.license = …` / `.licenses = …`, read as text: string literals only (a list may span lines). */
function gemspec(source: string): LicenceDeclaration {
  const line = /^[ \t]*\w+\.licen[sc]es?[ \t]*=[ \t]*(\[[^\]#]*\]|.+?)(?:[ \t]+#(?!\{).*)?[ \t]*$/m.exec(source);
  if (line?.[1] === undefined) return { license: null };
  const one = rubyString(line[1]);
  const all = one === null ? rubyStrings(line[1]) : [one];
  if (all === null) return notEvaluated(line[1]);
  const licences = all.map((l) => l.trim()).filter((l) => l !== '');
  if (licences.length === 0) return { license: null };
  // RubyGems: a gem under several licences may be used under any of them.
  const read = licences.map(named);
  if (read.some((r) => r.license === null)) return { license: null, unmapped: oneLine(licences.join(', '), MAX_TEXT) };
  return { license: read.length === 1 ? (read[0]?.license ?? null) : `(${read.map((r) => r.license).join(' OR ')})` };
}

function withoutXmlComments(source: string): string {
  return source.replace(/<!--[\s\S]*?-->/g, '');
}

function xmlText(value: string): string {
  return value
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
  const expression = /<PackageLicenseExpression(?:\s[^>]*)?>([\s\S]*?)<\/PackageLicenseExpression>/i.exec(xml)?.[1];
  if (expression !== undefined) {
    const text = xmlText(expression);
    return text.includes('$(') ? notEvaluated(text) : named(text);
  }
  const file = /<PackageLicenseFile(?:\s[^>]*)?>([\s\S]*?)<\/PackageLicenseFile>/i.exec(xml)?.[1];
  return file === undefined || xmlText(file) === '' ? { license: null } : { license: `SEE LICENSE IN ${oneLine(xmlText(file), MAX_TEXT)}` };
}

/**
 * A pom's `<licenses>`: one `<license><name>` mapped when it names an SPDX licence unambiguously;
 * several are kept unmapped (Maven does not say whether they are alternatives or all apply); none
 * with a `<parent>` is inherited, which nerq does not read.
 */
function pom(source: string): LicenceDeclaration {
  const xml = withoutXmlComments(source);
  const block = /<licenses>([\s\S]*?)<\/licenses>/i.exec(xml)?.[1];
  if (block === undefined) return /<parent>/i.test(xml) ? notEvaluated('inherited from the parent POM') : { license: null };
  const names = [...block.matchAll(/<license>[\s\S]*?<name>([\s\S]*?)<\/name>[\s\S]*?<\/license>/gi)].map((m) => xmlText(m[1] ?? '')).filter((n) => n !== '');
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
  const license = declaredLicenseOf(path, source);
  return license === undefined ? undefined : { license };
}
