/**
 * Hostile world, part 5 (continued): the MCP Registry's answer for an `mcp:` target, fuzzed
 * through the whole evaluation — the read API's entry parsed, its packages, repository,
 * remotes and arguments judged, the report built — in process against the fixture server. Each
 * case is a real seed entry (fixtures/mcp-registry/seed-2025-09-29.json.gz) with up to four
 * structure-aware edits, the replacement values either any JSON or the values this answer is
 * about (registry types, transports, URLs an attacker would write: metadata endpoints, file:,
 * javascript:, userinfo, a Cyrillic host, container flags, path climbs). Every other source
 * answers 503.
 *
 * The contract: no throw; a report that keeps its schema; never YES (nothing behind the entry
 * could be inspected); a report for the server asked about, or none.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkTargets } from '../../src/app/check.js';
import type { Runtime } from '../../src/app/runtime.js';
import { ReportSchema } from '../../src/report/schema.js';
import { DEFAULT_GATE } from '../../src/scoring/gate.js';
import { parseTarget } from '../../src/target/parse.js';
import { startAppHarness, type AppHarness } from '../support/temp-home.js';
import { DEFAULT_NOW } from '../support/run-cli.js';
import { envelope, SEED_2025, type ServerJson } from '../cli/mcp-helpers.js';
import { anyJson, check, FUZZ_TEST_TIMEOUT_MS, mutated, outcomes } from './support/fuzz-kit.js';

const NOW = new Date(DEFAULT_NOW);
/** Each case is a whole evaluation (tens of milliseconds), so fewer cases than the parsers' 10,000. */
const RUNS = 400;

const latest = new Map<string, ServerJson>();
for (const entry of SEED_2025) latest.set(entry.name, entry);
const ENTRIES = [...latest.values()];

/** What an attacker would put in an entry, beside any JSON. */
const entryValue = fc.oneof(
  anyJson,
  fc.constantFrom(
    'npm', 'pypi', 'oci', 'nuget', 'mcpb', 'cargo', 'streamable-http', 'sse', 'stdio', 'active', 'deprecated', 'deleted', 'removed',
    'http://x.example/mcp', 'https://169.254.169.254/latest/meta-data', 'file:///etc/passwd', 'javascript:alert(1)', 'https://user:tok@evil.example/x',
    'https://ex\u0430mple.com/mcp', 'https://[::1]:99999/', 'https://github.com/', 'https://github.com/../../x', 'git@github.com:o/r.git',
    '../../../etc/passwd', '@scope/', '@', 'docker.io/library/x:latest@sha256:zz', '--privileged', '-v', '/var/run/docker.sock:/var/run/docker.sock',
    '--network=host', '${HOME}', '{token}', 'io.github.x/y', '0.0.0', '0.0.1-security', '\u001b]8;;https://evil.example\u0007x', '', ' ',
  ),
);

let harness: AppHarness;
let app: Runtime;
/** The registry's answer for the case being run. */
let answer: unknown = null;

beforeAll(async () => {
  harness = await startAppHarness('nerq-fuzz-mcp-', NOW);
  harness.server.routePrefix('GET', '/mcp-registry/', (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer));
  });
  for (const prefix of ['npm', 'npm-api', 'pypi', 'pypistats', 'github', 'osv']) {
    harness.server.fallback('GET', `/${prefix}/`, { status: 503, body: 'down' });
    harness.server.fallback('POST', `/${prefix}/`, { status: 503, body: 'down' });
  }
  // The HTTP cache is not read: every case is its own answer, never the answer an earlier case
  // gave for the same server name (one runtime reading its cache judged about half the cases on
  // an answer already seen).
  app = harness.runtime({}, { cache: false });
});
afterAll(() => harness.stop());

const registryRequests = () => harness.server.requests.filter((r) => r.path.startsWith('/mcp-registry/')).length;

describe('MCP Registry entries, mutated, through the whole evaluation', () => {
  it('a schema-valid report for the server asked about, never YES, never a throw', { timeout: FUZZ_TEST_TIMEOUT_MS }, async ({ task }) => {
    const seen = outcomes();
    const cases = fc.nat(ENTRIES.length - 1).chain((i) => fc.tuple(fc.constant(ENTRIES[i]!), mutated(envelope(ENTRIES[i]!), { replacement: entryValue, max: 4 })));
    await check(
      task,
      fc.asyncProperty(cases, async ([entry, served]) => {
        answer = served;
        const asked = registryRequests();
        const [outcome] = await checkTargets(app, { targets: [parseTarget(`mcp:${entry.name}`)], gate: DEFAULT_GATE, now: NOW });
        // This case's answer was read, not an earlier one's for the same name.
        expect(registryRequests()).toBeGreaterThan(asked);
        const parsed = ReportSchema.safeParse(JSON.parse(JSON.stringify(outcome!.report)));
        expect(parsed.success, JSON.stringify(parsed.error?.issues[0])).toBe(true);
        const report = parsed.data!;
        expect(report.verdictCode).not.toBe('yes');
        if (report.verdictCode !== 'unknown') expect(report.target.name).toBe(entry.name);
        seen.note(report.verdictCode === 'unknown' ? 'not evaluated' : 'evaluated');
      }),
      RUNS,
    );
    // Both paths are exercised: entries the edits left readable, and ones they broke.
    seen.expectBoth('evaluated', 'not evaluated');
  });
});
