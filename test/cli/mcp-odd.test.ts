/**
 * Odd MCP Registry entries, end to end: `nerq check mcp:… --json` through the built CLI against
 * the fixture server, for variants of three recorded real entries (fixtures/mcp-registry): an
 * npm server (microsoft/playwright-mcp 0.0.79, its own server.json, with its recorded packument),
 * a PyPI server (blazickjp/arxiv-mcp-server 0.6.3; PyPI's answer is not recorded and answers
 * 503) and a remote-only one (the registry docs' example 07) — each variant edits ONE thing in
 * the registry's answer (an entry member, the registry's metadata, the body itself), never a
 * whole answer written by hand. Each run: no crash and no stack trace, a report the shipped
 * schema accepts, the exit code and verdict, the odd part unknown or a failure with its check's
 * code — never scored as good.
 *
 * Covered elsewhere and not repeated: legacy schema spellings (test/mcp-registry/legacy-schemas),
 * credentials in remote and repository URLs (check-mcp-hostile), runner arguments that widen
 * reach and look-alike packages (check-mcp, check-mcp-lies).
 */
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/report/schema.js';
import type { FixtureResponse, FixtureServer } from '../support/fixture-server.js';
import { runCli } from '../support/run-cli.js';
import { expectUsageError, schemaViolations } from './helpers.js';
import { entryPath, example, NOT_RECORDED, realEntry, serveRecordedNpm, startMcpFixtureServer, type ServerJson } from './mcp-helpers.js';
import { useMcpSandbox } from './mcp-sandbox.js';

type Base = 'npm' | 'pypi' | 'remote';
/** A check's expected message id; `null` after it: unknown (score null), a number: that score. */
type Expected = string | [string, number | null];
type Official = Record<string, unknown>;

interface Variant {
  name: string;
  base: Base;
  /** Edits the entry (a clone of the recorded one). */
  entry?: (e: Record<string, unknown>) => void;
  /** Edits the registry's metadata (`_meta['io.modelcontextprotocol.registry/official']`); null: no `_meta`. */
  official?: ((o: Official) => void) | null;
  /** The registry's answer replaced (the body of another kind). */
  answer?: FixtureResponse;
  exit: number;
  verdict: string;
  /** The report's error code (an entry not read). */
  error?: string;
  checks?: Record<string, Expected>;
  /** `mcp.packages` as [registryType, evaluated]. */
  packages?: [string, boolean][];
  /** Caps the report carries (among others). */
  caps?: string[];
  /** Members of a check's evidence. */
  evidence?: Record<string, Record<string, unknown>>;
  /** Checks not in the report (not applicable). */
  absent?: string[];
  /** Text that must not appear in the output. */
  notPrinted?: string[];
}

const NPM = realEntry('io.github.microsoft__playwright-mcp.server.json');
const PYPI = realEntry('io.github.blazickjp__arxiv-mcp-server.server.json');
const REMOTE = example('07-remote-server-example.json');
const ENTRIES: Record<Base, ServerJson> = { npm: NPM, pypi: PYPI, remote: REMOTE };

const pkg = (e: Record<string, unknown>) => (e.packages as Record<string, unknown>[])[0]!;
const remote = (e: Record<string, unknown>) => (e.remotes as Record<string, unknown>[])[0]!;
const drop = (key: string) => (e: Record<string, unknown>) => {
  delete e[key];
};
const set = (key: string, value: unknown) => (e: Record<string, unknown>) => {
  e[key] = value;
};
const remoteUrl = (url: string) => (e: Record<string, unknown>) => {
  remote(e).url = url;
};

/** As recorded: the npm package's vulnerabilities unchecked (OSV not recorded) — held, incomplete. */
const NPM_BASE = { base: 'npm', exit: 3, verdict: 'caution' } as const;
/** As recorded: PyPI's answer not recorded (503) — the package unavailable, the entry incomplete. */
const PYPI_BASE = { base: 'pypi', exit: 3, verdict: 'caution' } as const;
/** As recorded: remote-only, its code uninspected — at most CAUTION, incomplete. */
const REMOTE_BASE = { base: 'remote', exit: 3, verdict: 'caution' } as const;
/** The entry not read: no score, no verdict, exit 3. */
const UNAVAILABLE = { exit: 3, verdict: 'unknown', error: 'registry-unavailable' } as const;
/** The npm package evaluated as recorded, and claiming the entry. */
const NPM_EVALUATED: Record<string, Expected> = { 'mcp-packages': ['unchecked', 88.7], 'mcp-package-ownership': ['all-match', 100], 'mcp-namespace-owner': 'match' };
const NPM_PACKAGE: [string, boolean][] = [['npm', true]];
const NOT_EVALUATED = (registryType: string): Pick<Variant, 'checks' | 'packages' | 'caps'> => ({
  checks: { 'mcp-packages': ['none-evaluated', null] },
  packages: [[registryType, false]],
  caps: ['mcp-uninspected'],
});
const NOTHING_TO_RUN: Pick<Variant, 'checks' | 'caps'> = { checks: { 'mcp-packages': ['nothing-to-run', null] }, caps: ['mcp-uninspected'] };
const REMOTE_HTTPS: Record<string, Expected> = { 'mcp-remotes': ['https', 100], 'mcp-packages': ['remote-only', null] };
const LOCAL: Pick<Variant, 'exit' | 'verdict' | 'checks' | 'caps'> = { exit: 1, verdict: 'no', checks: { 'mcp-remotes': ['local-network', 0] }, caps: ['mcp-remote-local-network'] };
const BUNDLE = 'https://github.com/microsoft/playwright-mcp/releases/download/v0.0.79/playwright-mcp.mcpb';
const withBundle = (bundle: Record<string, unknown>) => (e: Record<string, unknown>) => {
  (e.packages as unknown[]).push({ registryType: 'mcpb', identifier: BUNDLE, version: '0.0.79', transport: { type: 'stdio' }, ...bundle });
};

const VARIANTS: Variant[] = [
  { name: 'npm: as recorded', ...NPM_BASE, checks: { ...NPM_EVALUATED, 'mcp-registry-status': ['active', 100] }, packages: NPM_PACKAGE },
  { name: 'pypi: as recorded', ...PYPI_BASE, checks: { 'mcp-packages': ['unavailable', null], 'mcp-package-ownership': ['unknown', null] }, packages: [['pypi', true]], caps: ['mcp-package-unavailable'] },
  { name: 'remote: as recorded', ...REMOTE_BASE, checks: REMOTE_HTTPS, caps: ['mcp-uninspected'] },
  // Optional members missing or null: read as absent, the rest as recorded.
  ...(['description', 'websiteUrl', 'icons', 'title', '_meta'] as const).flatMap((key): Variant[] => [
    { name: `npm: no ${key}`, ...NPM_BASE, entry: drop(key), checks: NPM_EVALUATED, packages: NPM_PACKAGE },
    { name: `npm: ${key} null`, ...NPM_BASE, entry: set(key, null), checks: NPM_EVALUATED, packages: NPM_PACKAGE },
  ]),
  { name: 'npm: no repository', ...NPM_BASE, entry: drop('repository'), checks: { 'mcp-namespace-owner': ['no-repository', null], 'mcp-packages': ['unchecked', 88.7] } },
  { name: 'npm: repository null', ...NPM_BASE, entry: set('repository', null), checks: { 'mcp-namespace-owner': ['no-repository', null], 'mcp-packages': ['unchecked', 88.7] } },
  // The repository's URL as people write it, and as look-alikes do.
  ...([
    ['with .git and git+', 'git+https://github.com/microsoft/playwright-mcp.git'],
    ['in capitals with a trailing slash', 'https://GitHub.com/Microsoft/Playwright-MCP/'],
  ] as const).map(([what, url]): Variant => ({ name: `npm: repository URL ${what}`, ...NPM_BASE, entry: set('repository', { url, source: 'github' }), checks: NPM_EVALUATED })),
  ...([
    ['on a look-alike host', 'https://github.com.evil.example/microsoft/playwright-mcp'],
    ['with the owner only', 'https://github.com/microsoft'],
    ['on GitLab', 'https://gitlab.com/microsoft/playwright-mcp'],
    ['a relative path', '../playwright-mcp'],
  ] as const).map(([what, url]): Variant => ({ name: `npm: repository URL ${what}`, ...NPM_BASE, entry: set('repository', { url, source: 'github' }), checks: { 'mcp-namespace-owner': ['no-repository', null] } })),
  { name: 'npm: no version, the legacy version_detail only', ...NPM_BASE, entry: (e) => { e.version_detail = { version: e.version }; delete e.version; }, checks: NPM_EVALUATED, packages: NPM_PACKAGE },
  { name: 'npm: neither version nor version_detail', ...NPM_BASE, ...UNAVAILABLE, entry: drop('version') },
  { name: 'npm: icons a string', ...NPM_BASE, entry: set('icons', 'https://example.com/icon.png'), checks: NPM_EVALUATED },
  { name: 'npm: a description of 10,000 characters', ...NPM_BASE, entry: set('description', 'Playwright '.repeat(1000)), checks: NPM_EVALUATED },
  { name: 'npm: no packages', ...NPM_BASE, entry: drop('packages'), ...NOTHING_TO_RUN },
  { name: 'npm: packages null', ...NPM_BASE, entry: set('packages', null), ...NOTHING_TO_RUN },
  { name: 'npm: packages empty', ...NPM_BASE, entry: set('packages', []), ...NOTHING_TO_RUN },
  { name: 'remote: remotes null', ...REMOTE_BASE, entry: set('remotes', null), ...NOTHING_TO_RUN },
  { name: 'remote: remotes empty', ...REMOTE_BASE, entry: set('remotes', []), ...NOTHING_TO_RUN },
  { name: 'npm: the registry metadata missing', ...NPM_BASE, official: null, checks: { 'mcp-registry-status': ['unknown', null] } },
  // Wrong types: a member a check judges refuses the entry or its package, one only shown is read as absent.
  { name: 'npm: version a number', ...NPM_BASE, ...UNAVAILABLE, entry: set('version', 79) },
  { name: 'npm: packages an object', ...NPM_BASE, ...UNAVAILABLE, entry: (e) => { e.packages = pkg(e); } },
  { name: 'npm: packages a string', ...NPM_BASE, ...UNAVAILABLE, entry: set('packages', '@playwright/mcp') },
  { name: 'npm: a null among the packages', ...NPM_BASE, ...UNAVAILABLE, entry: (e) => { (e.packages as unknown[]).push(null); } },
  { name: 'remote: remotes a string', ...REMOTE_BASE, ...UNAVAILABLE, entry: set('remotes', 'https://mcp-fs.anonymous.modelcontextprotocol.io/http') },
  { name: 'remote: 65 remotes (over the cap)', ...REMOTE_BASE, ...UNAVAILABLE, entry: (e) => { e.remotes = Array.from({ length: 65 }, () => structuredClone(remote(e))); } },
  { name: 'npm: repository a string', ...NPM_BASE, entry: set('repository', 'https://github.com/microsoft/playwright-mcp'), checks: NPM_EVALUATED },
  { name: 'npm: description an array', ...NPM_BASE, entry: set('description', ['Playwright', 'Tools']), checks: NPM_EVALUATED },
  { name: 'npm: the package version a number', ...NPM_BASE, entry: (e) => { pkg(e).version = 0.79; }, ...NOT_EVALUATED('npm') },
  { name: 'pypi: registryBaseUrl a number', ...PYPI_BASE, entry: (e) => { pkg(e).registryBaseUrl = 443; }, ...NOT_EVALUATED('pypi') },
  { name: 'npm: 50 packages', ...NPM_BASE, entry: (e) => { e.packages = Array.from({ length: 50 }, () => structuredClone(pkg(e))); }, checks: NPM_EVALUATED, packages: Array.from({ length: 50 }, (): [string, boolean] => ['npm', true]) },
  // The package's version: absent or empty, the client runs whatever is latest when it starts.
  { name: 'npm: no package version', ...NPM_BASE, entry: (e) => { delete pkg(e).version; }, checks: NPM_EVALUATED, evidence: { 'mcp-packages': { unpinned: 'npm:@playwright/mcp' } }, packages: NPM_PACKAGE },
  { name: 'npm: the package version empty', ...NPM_BASE, entry: (e) => { pkg(e).version = ''; }, checks: NPM_EVALUATED, evidence: { 'mcp-packages': { unpinned: 'npm:@playwright/mcp' } }, packages: NPM_PACKAGE },
  // Registry types and transports nerq does not know.
  { name: 'npm: registryType cargo', ...NPM_BASE, entry: (e) => { pkg(e).registryType = 'cargo'; }, ...NOT_EVALUATED('cargo') },
  { name: 'pypi: registryType gem', ...PYPI_BASE, entry: (e) => { pkg(e).registryType = 'gem'; }, ...NOT_EVALUATED('gem') },
  { name: 'npm: registryType NPM', ...NPM_BASE, entry: (e) => { pkg(e).registryType = 'NPM'; }, ...NOT_EVALUATED('NPM') },
  { name: 'npm: an unknown transport.type', ...NPM_BASE, entry: (e) => { pkg(e).transport = { type: 'carrier-pigeon' }; }, checks: NPM_EVALUATED, packages: NPM_PACKAGE },
  // A package's HTTP transport: its own local server, or a server elsewhere judged as a remote.
  ...['http://localhost:{--port}/mcp', 'http://127.0.0.1:8931/mcp', 'http://0.0.0.0:8000/mcp', 'http://[::]:8000/mcp', 'http://[::1]:8000/mcp', 'http://[::ffff:127.0.0.1]:8000/mcp', 'http://{host}:{port}/mcp'].map(
    (url): Variant => ({ name: `npm: the package's transport on this machine, ${url}`, ...NPM_BASE, entry: (e) => { pkg(e).transport = { type: 'streamable-http', url }; }, checks: NPM_EVALUATED, absent: ['mcp-remotes'] }),
  ),
  ...['https://mcp.evil.example/mcp', 'https://127.mcp.evil.example/mcp'].map(
    (url): Variant => ({ name: `npm: the package's transport a server elsewhere, ${url}`, ...NPM_BASE, entry: (e) => { pkg(e).transport = { type: 'streamable-http', url }; }, checks: { ...NPM_EVALUATED, 'mcp-remotes': ['foreign-host', 60] } }),
  ),
  { name: 'remote: an unknown remote type', ...REMOTE_BASE, entry: (e) => { remote(e).type = 'websocket'; }, checks: REMOTE_HTTPS },
  // Where a package comes from: another registry's package of the same name is not the public one.
  { name: 'npm: registryBaseUrl another registry', ...NPM_BASE, entry: (e) => { pkg(e).registryBaseUrl = 'https://npm.corp.example'; }, ...NOT_EVALUATED('npm') },
  { name: 'pypi: registryBaseUrl another index', ...PYPI_BASE, entry: (e) => { pkg(e).registryBaseUrl = 'https://pypi.corp.example'; }, ...NOT_EVALUATED('pypi') },
  { name: 'pypi: registryBaseUrl test.pypi.org', ...PYPI_BASE, entry: (e) => { pkg(e).registryBaseUrl = 'https://test.pypi.org'; }, ...NOT_EVALUATED('pypi') },
  { name: 'pypi: registryBaseUrl PyPI over http', ...PYPI_BASE, entry: (e) => { pkg(e).registryBaseUrl = 'http://pypi.org'; }, ...NOT_EVALUATED('pypi') },
  { name: 'pypi: registryBaseUrl pypi.org as user info of another host', ...PYPI_BASE, entry: (e) => { pkg(e).registryBaseUrl = 'https://pypi.org@evil.example'; }, ...NOT_EVALUATED('pypi') },
  { name: 'pypi: registryBaseUrl PyPI in capitals with a slash', ...PYPI_BASE, entry: (e) => { pkg(e).registryBaseUrl = 'https://PyPI.org/'; }, checks: { 'mcp-packages': ['unavailable', null] }, packages: [['pypi', true]] },
  // The identifier carrying a version, agreeing or not with `version`; blank identifiers.
  { name: 'npm: identifier pkg@version disagreeing with version', ...NPM_BASE, entry: (e) => { pkg(e).identifier = '@playwright/mcp@0.0.1'; }, ...NOT_EVALUATED('npm') },
  { name: 'npm: identifier pkg@version agreeing with version', ...NPM_BASE, entry: (e) => { pkg(e).identifier = '@playwright/mcp@0.0.79'; }, ...NOT_EVALUATED('npm') },
  // With no version field, a version in the identifier is what the runner is given (`npx -y pkg@latest`): a range or tag is no single release.
  { name: 'npm: identifier pkg@latest and no version', ...NPM_BASE, entry: (e) => { pkg(e).identifier = '@playwright/mcp@latest'; delete pkg(e).version; }, checks: { 'mcp-packages': ['unchecked', 88.7] }, evidence: { 'mcp-packages': { unpinned: 'npm:@playwright/mcp@latest' } }, packages: NPM_PACKAGE },
  { name: 'pypi: identifier with a specifier and no version', ...PYPI_BASE, entry: (e) => { pkg(e).identifier = 'arxiv-mcp-server>=0.1'; delete pkg(e).version; }, checks: { 'mcp-packages': ['unavailable', null] }, evidence: { 'mcp-packages': { package: 'pypi:arxiv-mcp-server>=0.1' } }, packages: [['pypi', true]] },
  { name: 'npm: identifier with spaces around it', ...NPM_BASE, entry: (e) => { pkg(e).identifier = ' @playwright/mcp '; }, ...NOT_EVALUATED('npm') },
  { name: 'npm: identifier empty', ...NPM_BASE, entry: (e) => { pkg(e).identifier = ''; }, ...NOT_EVALUATED('npm') },
  // An MCP bundle beside the package.
  { name: 'npm: an mcpb with fileSha256', ...NPM_BASE, entry: withBundle({ fileSha256: 'a'.repeat(64) }), checks: { ...NPM_EVALUATED, 'mcp-bundles': ['release', 100] }, packages: [['npm', true], ['mcpb', false]] },
  { name: 'npm: an mcpb with an upper-case fileSha256', ...NPM_BASE, entry: withBundle({ fileSha256: 'A'.repeat(64) }), checks: { 'mcp-bundles': ['release', 100] } },
  { name: 'npm: an mcpb without fileSha256', ...NPM_BASE, entry: withBundle({}), checks: { 'mcp-bundles': ['no-hash', 0] } },
  { name: 'npm: an mcpb over http', ...NPM_BASE, entry: withBundle({ identifier: BUNDLE.replace('https:', 'http:'), fileSha256: 'a'.repeat(64) }), checks: { 'mcp-bundles': ['not-a-release', 0] } },
  // Remotes.
  { name: 'remote: http://', ...REMOTE_BASE, exit: 1, verdict: 'no', entry: remoteUrl('http://mcp-fs.anonymous.modelcontextprotocol.io/http'), checks: { 'mcp-remotes': ['insecure', 0] }, caps: ['mcp-remote-insecure'] },
  { name: 'remote: ws://', ...REMOTE_BASE, exit: 1, verdict: 'no', entry: remoteUrl('ws://mcp-fs.anonymous.modelcontextprotocol.io/http'), checks: { 'mcp-remotes': ['insecure', 0] }, caps: ['mcp-remote-insecure'] },
  { name: 'remote: user info in the URL (never printed)', ...REMOTE_BASE, entry: remoteUrl('https://deploy:pa55w0rd@mcp-fs.anonymous.modelcontextprotocol.io/http'), checks: REMOTE_HTTPS, notPrinted: ['pa55w0rd', 'deploy:'] },
  { name: 'remote: upper-case scheme and host', ...REMOTE_BASE, entry: remoteUrl('HTTPS://MCP-FS.Anonymous.ModelContextProtocol.io/http'), checks: REMOTE_HTTPS },
  { name: 'remote: a {variables} path', ...REMOTE_BASE, entry: remoteUrl('https://mcp-fs.anonymous.modelcontextprotocol.io/{tenant}/http'), checks: REMOTE_HTTPS },
  { name: 'remote: a {variables} port', ...REMOTE_BASE, entry: remoteUrl('https://mcp-fs.anonymous.modelcontextprotocol.io:{port}/http'), checks: REMOTE_HTTPS },
  { name: 'remote: a {variables} host', ...REMOTE_BASE, entry: remoteUrl('https://{host}/http'), checks: { 'mcp-remotes': ['templated', null] } },
  { name: 'remote: a {variables} scheme', ...REMOTE_BASE, entry: remoteUrl('{scheme}://mcp-fs.anonymous.modelcontextprotocol.io/http'), checks: { 'mcp-remotes': ['templated', null] } },
  { name: 'remote: a URL without a scheme', ...REMOTE_BASE, entry: remoteUrl('mcp-fs.anonymous.modelcontextprotocol.io/http'), checks: { 'mcp-remotes': ['unreadable', null] } },
  { name: 'remote: an empty URL', ...REMOTE_BASE, entry: remoteUrl(''), checks: { 'mcp-remotes': ['unreadable', null] } },
  { name: 'remote: a public IPv4 literal', ...REMOTE_BASE, entry: remoteUrl('https://203.0.113.7/http'), checks: { 'mcp-remotes': ['foreign-host', 60] } },
  { name: 'remote: localhost', ...REMOTE_BASE, entry: remoteUrl('https://localhost:8080/http'), ...LOCAL },
  { name: 'remote: a name under .localhost', ...REMOTE_BASE, entry: remoteUrl('https://mcp.localhost/http'), ...LOCAL },
  { name: 'remote: [::1]', ...REMOTE_BASE, entry: remoteUrl('https://[::1]/http'), ...LOCAL },
  { name: 'remote: [::ffff:127.0.0.1]', ...REMOTE_BASE, entry: remoteUrl('https://[::ffff:127.0.0.1]/http'), ...LOCAL },
  { name: 'remote: 0x7f000001', ...REMOTE_BASE, entry: remoteUrl('https://0x7f000001/http'), ...LOCAL },
  { name: 'remote: 0.0.0.0', ...REMOTE_BASE, entry: remoteUrl('https://0.0.0.0/http'), ...LOCAL },
  { name: 'remote: the cloud metadata address', ...REMOTE_BASE, entry: remoteUrl('https://169.254.169.254/latest'), ...LOCAL },
  { name: 'remote: a secret header', ...REMOTE_BASE, entry: (e) => { remote(e).headers = [{ name: 'Authorization', isSecret: true, isRequired: true }]; }, checks: REMOTE_HTTPS, evidence: { 'mcp-remotes': { secretHeaders: ['Authorization'] } } },
  { name: 'remote: a secret header with a value preset (never printed)', ...REMOTE_BASE, entry: (e) => { remote(e).headers = [{ name: 'Authorization', isSecret: true, value: 'Bearer sk-live-51HxPRESET' }]; }, checks: REMOTE_HTTPS, notPrinted: ['sk-live-51HxPRESET'] },
  { name: 'pypi: a secret variable with a value preset (never printed)', ...PYPI_BASE, entry: (e) => { pkg(e).environmentVariables = [{ name: 'ARXIV_API_KEY', isSecret: true, value: 'sk-live-51HxPRESET' }]; }, checks: { 'mcp-packages': ['unavailable', null] }, notPrinted: ['sk-live-51HxPRESET'] },
  { name: 'remote: headers as a map', ...REMOTE_BASE, entry: (e) => { remote(e).headers = { Authorization: 'Bearer x' }; }, checks: REMOTE_HTTPS, evidence: { 'mcp-remotes': { secretHeaders: [] } } },
  // The registry's metadata.
  { name: 'npm: deprecated without a message', ...NPM_BASE, exit: 1, verdict: 'no', official: (o) => { o.status = 'deprecated'; }, checks: { 'mcp-registry-status': ['deprecated', 0] }, caps: ['mcp-deprecated'] },
  { name: 'npm: deleted', ...NPM_BASE, exit: 3, verdict: 'unknown', error: 'not-found', official: (o) => { o.status = 'deleted'; } },
  { name: 'npm: an unknown status', ...NPM_BASE, official: (o) => { o.status = 'quarantined'; }, checks: { 'mcp-registry-status': ['unrecognised', null] } },
  { name: 'npm: status Deprecated in capitals', ...NPM_BASE, official: (o) => { o.status = 'Deprecated'; }, checks: { 'mcp-registry-status': ['unrecognised', null] } },
  { name: 'npm: no status', ...NPM_BASE, official: (o) => { delete o.status; }, checks: { 'mcp-registry-status': ['unknown', null] } },
  { name: 'npm: status null', ...NPM_BASE, official: (o) => { o.status = null; }, checks: { 'mcp-registry-status': ['unknown', null] } },
  { name: 'npm: statusMessage a number', ...NPM_BASE, ...UNAVAILABLE, official: (o) => { o.status = 'deprecated'; o.statusMessage = 42; } },
  { name: 'npm: isLatest false on the latest answer', ...NPM_BASE, ...UNAVAILABLE, official: (o) => { o.isLatest = false; } },
  { name: 'npm: isLatest a string', ...NPM_BASE, ...UNAVAILABLE, official: (o) => { o.isLatest = 'true'; } },
  { name: 'npm: publishedAt in the future', ...NPM_BASE, official: (o) => { o.publishedAt = '2099-01-01T00:00:00Z'; o.updatedAt = '2099-01-01T00:00:00Z'; }, checks: { ...NPM_EVALUATED, 'mcp-registry-status': ['active', 100] } },
  { name: 'npm: the answer names the server in another letter case', ...NPM_BASE, ...UNAVAILABLE, entry: (e) => { e.name = 'io.github.Microsoft/playwright-mcp'; } },
  // The answer itself.
  { name: 'npm: an HTML answer', ...NPM_BASE, ...UNAVAILABLE, answer: { headers: { 'content-type': 'text/html' }, body: '<!doctype html><html><body>Service maintenance</body></html>' } },
  { name: 'npm: truncated JSON', ...NPM_BASE, ...UNAVAILABLE, answer: { body: '{"server": {"name": "io.github.microsoft/playwright-mcp", "vers' } },
  { name: 'npm: an empty body', ...NPM_BASE, ...UNAVAILABLE, answer: { body: '' } },
  { name: 'npm: JSON null', ...NPM_BASE, ...UNAVAILABLE, answer: { body: 'null' } },
  { name: 'npm: a 3 MB answer (over the size cap)', ...NPM_BASE, ...UNAVAILABLE, answer: { body: JSON.stringify({ server: { ...NPM, description: 'x'.repeat(3 * 1024 * 1024) } }) } },
  { name: 'npm: a 3 MB answer gzip-compressed (the cap is on what it inflates to)', ...NPM_BASE, ...UNAVAILABLE, answer: { encoding: 'gzip', body: JSON.stringify({ server: { ...NPM, description: 'x'.repeat(3 * 1024 * 1024) } }) } },
  { name: 'npm: a body cut short under its Content-Length', ...NPM_BASE, ...UNAVAILABLE, answer: { truncate: 100, body: { server: NPM, _meta: { 'io.modelcontextprotocol.registry/official': { status: 'active', isLatest: true } } } } },
  { name: 'npm: 410 Gone', ...NPM_BASE, ...UNAVAILABLE, answer: { status: 410, body: { title: 'Gone' } } },
  { name: 'npm: 404 as an HTML page', ...NPM_BASE, exit: 3, verdict: 'unknown', error: 'not-found', answer: { status: 404, headers: { 'content-type': 'text/html' }, body: '<html>Not Found</html>' } },
];

const OFFICIAL = { status: 'active', publishedAt: '2026-07-01T10:00:00Z', updatedAt: '2026-07-01T10:00:00Z', isLatest: true };

const sandbox = useMcpSandbox(startMcpFixtureServer);

async function serveVariant(v: Variant): Promise<{ s: FixtureServer; name: string }> {
  const s = await sandbox.start();
  const recorded = ENTRIES[v.base];
  const entry = structuredClone(recorded) as Record<string, unknown>;
  v.entry?.(entry);
  const official: Official = { ...OFFICIAL };
  if (typeof v.official === 'function') v.official(official);
  const body = v.official === null ? { server: entry } : { server: entry, _meta: { 'io.modelcontextprotocol.registry/official': official } };
  s.expect('GET', entryPath(recorded.name), v.answer ?? { body });
  if (v.base === 'npm') {
    serveRecordedNpm(s, '@playwright/mcp', '0.0.79');
    // An entry naming no version is evaluated at the packument's latest (0.0.83): its tarball is not recorded either.
    s.expect('GET', '/npm/@playwright/mcp/-/mcp-0.0.83.tgz', NOT_RECORDED);
  }
  // PyPI's answers are not recorded; the other ecosystems' registries are never asked.
  s.fallback('GET', '/pypi/', { status: 503, body: 'not recorded' });
  return { s, name: recorded.name };
}

describe('odd MCP Registry entries: `nerq check mcp:… --json` against variants of recorded ones', () => {
  for (const v of VARIANTS) {
    it(v.name, async () => {
      const { s, name } = await serveVariant(v);
      const result = await runCli(['check', `mcp:${name}`, '--json'], { server: s });
      expect(result.stderr).not.toMatch(/\n\s+at /);
      const json = JSON.parse(result.stdout) as Report;
      expect(schemaViolations(json)).toEqual([]);
      const found = (id: string) => json.checks.find((c) => c.id === id);
      expect({ exit: result.code, verdict: json.verdictCode, error: json.error?.code ?? null }).toEqual({ exit: v.exit, verdict: v.verdict, error: v.error ?? null });
      for (const [id, expected] of Object.entries(v.checks ?? {})) {
        const [messageId, score] = typeof expected === 'string' ? [expected, undefined] : expected;
        expect(found(id)?.messageId, id).toBe(messageId);
        if (score !== undefined) expect(found(id)?.score, id).toBe(score);
      }
      for (const [id, members] of Object.entries(v.evidence ?? {})) expect(found(id)?.evidence, id).toMatchObject(members);
      expect(json.caps.map((c) => c.id)).toEqual(expect.arrayContaining(v.caps ?? []));
      for (const id of v.absent ?? []) expect(found(id)?.score ?? null, id).toBeNull();
      for (const text of v.notPrinted ?? []) expect(result.stdout + result.stderr).not.toContain(text);
      if (v.packages !== undefined) expect(json.mcp?.packages.map((p) => [p.registryType, p.notEvaluated === null])).toEqual(v.packages);
      // Nothing unknown is scored: no odd part counted as good.
      for (const check of json.checks) if (check.status === 'unknown') expect(check.score, check.id).toBeNull();
    });
  }
});

describe('odd names: exit 2 before any request', () => {
  it.each([
    ['a trailing slash', 'mcp:io.github.microsoft/playwright-mcp/'],
    ['a doubled dot in the namespace', 'mcp:io..github.microsoft/playwright-mcp'],
    ['a dot-dot name', 'mcp:io.github.microsoft/..'],
    ['percent-encoding', 'mcp:io.github.microsoft%2Fplaywright-mcp'],
    ['300 characters', `mcp:io.github.microsoft/${'p'.repeat(276)}`],
  ])('%s', async (_what, target) => {
    const s = await sandbox.start();
    const result = await runCli(['check', target, '--json'], { server: s });
    expectUsageError(result);
    expect(s.requests).toEqual([]);
  });
});

describe('odd names and searches', () => {
  it('a name in capitals is asked for as written (the registry\'s names are case-sensitive); its 404 is not found', async () => {
    const s = await sandbox.start();
    s.expect('GET', entryPath('IO.GITHUB.MICROSOFT/PLAYWRIGHT-MCP'), { status: 404, body: { title: 'Not Found', status: 404 } });
    const result = await runCli(['check', 'mcp:IO.GITHUB.MICROSOFT/PLAYWRIGHT-MCP', '--json'], { server: s });
    expect(result.stderr).not.toMatch(/\n\s+at /);
    const json = JSON.parse(result.stdout) as Report;
    expect(schemaViolations(json)).toEqual([]);
    expect({ exit: result.code, error: json.error?.code }).toEqual({ exit: 3, error: 'not-found' });
    expect(s.requests.map((r) => r.path)).toEqual(['/mcp-registry/v0.1/servers/IO.GITHUB.MICROSOFT%2fPLAYWRIGHT-MCP/versions/latest']);
  });

  /** A search answering the recorded npm entry on every page, with the cursor `next` gives after page `n`. */
  function serveSearch(s: FixtureServer, next: (page: number) => string | undefined): void {
    let page = 0;
    s.route('GET', '/mcp-registry/v0.1/servers', (_req, res) => {
      page += 1;
      const cursor = next(page);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ servers: [{ server: NPM, _meta: { 'io.modelcontextprotocol.registry/official': OFFICIAL } }], metadata: { count: 1, ...(cursor === undefined ? {} : { nextCursor: cursor }) } }));
    });
  }
  const searches = (s: FixtureServer) => s.requests.filter((r) => r.path.startsWith('/mcp-registry/v0.1/servers?')).length;

  it('a search returning the same cursor forever ends at the repeat; the list did not end, so its one server is not picked (exit 2)', async () => {
    const s = await sandbox.start();
    serveSearch(s, () => 'io.github.microsoft/playwright-mcp:0.0.79');
    const result = await runCli(['check', 'mcp:playwright-mcp', '--json'], { server: s });
    expectUsageError(result);
    expect(result.stderr).toContain(NPM.name);
    expect(result.stderr).toContain('repeated a cursor');
    expect(searches(s)).toBe(2);
  });

  it('a search whose cursor never ends stops after its page limit, and an incomplete list picks no server (exit 2)', async () => {
    const s = await sandbox.start();
    serveSearch(s, (page) => `cursor-${page}`);
    const result = await runCli(['check', 'mcp:playwright-mcp', '--json'], { server: s });
    expectUsageError(result);
    expect(result.stderr).toContain(NPM.name);
    expect(searches(s)).toBe(5);
  });

  it('a search page that is HTML: the registry unavailable (exit 3), not a crash', async () => {
    const s = await sandbox.start();
    s.expect('GET', '/mcp-registry/v0.1/servers', { headers: { 'content-type': 'text/html' }, body: '<html><body>rate limited</body></html>' });
    const result = await runCli(['check', 'mcp:playwright-mcp', '--json'], { server: s });
    expect(result.stderr).not.toMatch(/\n\s+at /);
    const json = JSON.parse(result.stdout) as Report;
    expect(schemaViolations(json)).toEqual([]);
    expect({ exit: result.code, verdict: json.verdictCode, error: json.error?.code }).toEqual({ exit: 3, verdict: 'unknown', error: 'registry-unavailable' });
  });
});
