/**
 * nerq's command line: parse → use case (src/app) → render → exit code. stdout carries the report
 * only; progress, warnings and errors go to stderr. Importing this module runs nothing (bin.ts
 * runs `main`). Exit codes (docs/scoring.md §10): 0 passed · 1 failed the gate · 2 usage or invalid input
 * · 3 could not be evaluated. Bad input never prints a stack trace.
 */
import { Command, CommanderError, Option } from 'commander';
import { VERSION } from '../version.js';
import { UsageError } from './usage-error.js';
import { printError, stderrText } from './stderr.js';
import { CATEGORIES } from '../scoring/profiles.js';
import { AUDIT_COMPARE_LIMIT } from '../app/audit-compare.js';

function outputOptions(command: Command): Command {
  return command
    .option('--json', 'print the JSON report (same as --format json)')
    .addOption(new Option('--format <format>', 'output format: table, json or markdown'))
    .option('--min-score <n>', 'gate: fail targets scoring below n (default 50)')
    .option('--min-coverage <r>', 'gate: targets with coverage below r (0–1) are not evaluated (default 0.5)')
    .option('--category <category>', `override the category (${CATEGORIES.join(', ')})`)
    .option('--allow-incomplete', 'pass targets whose vulnerability or malicious-package checks could not run (risky: unchecked is not clean)')
    .option('--evidence', 'list the raw evidence under each check in the terminal report')
    .option('-q, --quiet', 'terminal report: only the outcome, the alerts and the gate')
    .option('-o, --output <file>', 'write the report to file instead of stdout (the exit code is the same)')
    .option('--no-color', 'no colour in the terminal report');
}

/** `--include-package`, the same on `check` and `compare` (docs/scoring.md §9). */
const INCLUDE_PACKAGE_HELP = 'github: targets: fold in the registry checks of the package the repository publishes (its link verified; name one when there are several)';

/** Repeatable option values, in order. */
/** Repeatable options: no default array, so help shows no "(default: [])". */
function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export function buildProgram(): Command {
  const program = new Command('nerq')
    .description('Trust auditor for open-source packages: a transparent 0–100 trust score, explained.')
    .version(VERSION, '-v, --version')
    .showSuggestionAfterError(true)
    .exitOverride()
    // One line, always: commander's suggestion ("(Did you mean --json?)") joins the message.
    .configureOutput({ outputError: (text, write) => write(`nerq: ${stderrText(text.replace(/^error: /, ''))}\n`) });

  outputOptions(
    program
      .command('check')
      .description('score packages and repositories: npm, PyPI (pypi:), GitHub (github:owner/repo)')
      .argument('<target...>', 'express, express@5, @scope/pkg@1.2.3, pypi:requests==2.31.0, github:owner/repo, pkg:npm/express@5.1.0')
      .option('--timeout <seconds>', 'deadline for the whole run (default 60)')
      .option('--save-evidence <file>', 'write the collected evidence as JSON (re-score it with nerq score)')
      .option('--compare', "add the target's standing among its peers and higher-scoring alternatives (evaluates the peers too)")
      .option('--peers <n>', 'with --compare: peers to evaluate at most (default 12, at most 50)')
      .option('--include-package [name]', INCLUDE_PACKAGE_HELP)
      .option('--registry <url>', 'npm registry (default: from your npm configuration)')
      .option('--offline', 'answer only from the local store: what is not there is unknown')
      .option('--no-cache', 'do not read the HTTP cache (fresh answers are still stored)')
      .option('--max-age <seconds>', 'treat cached answers older than this as stale (overrides each source\'s freshness)')
      .option('--no-history', 'do not record this evaluation or compare with the previous one'),
  ).action(async (targets: string[], options: Record<string, unknown>) => {
    // Loaded on demand: `--version` and `--help` start without the whole pipeline.
    const { runCheck } = await import('./run-check.js');
    process.exitCode = await runCheck(targets, options);
  });

  program
    .command('audit')
    .description('gate every dependency of a project (lockfiles, manifests, SBOMs) against a policy')
    .argument('[dir]', 'the project directory (default: the current directory)')
    .option('--file <path>', 'audit this lockfile, manifest or SBOM (repeatable; default: detected in dir)', collect)
    .option('--mcp', "audit the MCP servers configured in this machine's MCP clients and in dir, instead of lockfiles (nothing is started)")
    .option('--mcp-config <file>', 'audit the MCP servers this client configuration file lists (repeatable; with --mcp, besides the files found)', collect)
    .option('--policy <file>', 'policy file (default: .nerqrc.json or package.json "nerq", from dir up to the repository root)')
    .option('--changed-since <ref>', 'only dependencies added or changed since this git ref (pull-request mode; the policy is read as it is at the ref)')
    .option('--policy-from-head', "with --changed-since: apply the checkout's policy, not the ref's")
    .option('--direct', 'only direct dependencies')
    .option('--omit <type>', 'leave out dev dependencies (--omit dev)', collect)
    .option('--concurrency <n>', 'evaluations in flight (default 64, at most 256)')
    .option('--trust-project-npmrc', "follow a registry that only the audited directory's .npmrc or .yarnrc.yml sets")
    .option('--json', 'print the audit report as JSON (same as --format json)')
    .addOption(new Option('--format <format>', 'output format: table, json, markdown or sarif'))
    .option('--min-score <n>', 'policy: fail packages scoring below n (overrides the policy file)')
    .option('--min-coverage <r>', 'policy: packages with coverage below r (0–1) are not evaluated, exit 3 (overrides the policy file)')
    .option('--fail-on <severity>', 'also fail a package an advisory of this severity or higher affects: low, moderate, high or critical')
    .option('--compare', `for the failing packages (at most ${AUDIT_COMPARE_LIMIT}, worst first): their standing among peers and higher-scoring alternatives`)
    .option('--peers <n>', 'with --compare: peers to evaluate per failing package at most (default 12, at most 50)')
    .option('--allow-incomplete', 'exit 0 even when packages could not be checked for vulnerabilities or malicious code (risky: unchecked is not clean)')
    .option('-q, --quiet', 'terminal table: only the packages that need attention, the warnings and the result')
    .option('-o, --output <file>', 'write the report to file instead of stdout (the exit code is the same)')
    .option('--category <category>', `override the category of every package (${CATEGORIES.join(', ')})`)
    .option('--timeout <seconds>', 'deadline for the whole run (default: 120, or 1 per 4 packages when that is longer)')
    .option('--registry <url>', 'npm registry (default: from your npm configuration)')
    .option('--offline', 'answer only from the local store')
    .option('--no-cache', 'do not read the HTTP cache')
    .option('--max-age <seconds>', 'treat cached answers older than this as stale')
    .option('--no-history', 'do not record these evaluations')
    .option('--no-color', 'no colour in the terminal report')
    .action(async (dir: string | undefined, options: Record<string, unknown>) => {
      const { runAudit } = await import('./run-audit.js');
      process.exitCode = await runAudit(dir, options);
    });

  program
    .command('compare')
    .description('targets side by side: score, grade, verdict, dimensions, coverage and the checks where they differ most')
    .argument('<target...>', 'two or more targets as given to check (request ky ofetch)')
    .option('--json', 'print the reports and the comparison as JSON (same as --format json)')
    .addOption(new Option('--format <format>', 'output format: table, json or markdown'))
    .option('--category <category>', `score every target under this category (${CATEGORIES.join(', ')})`)
    .option('--include-package [name]', INCLUDE_PACKAGE_HELP)
    .option('--timeout <seconds>', 'deadline for the whole run (default 60)')
    .option('--registry <url>', 'npm registry (default: from your npm configuration)')
    .option('--offline', 'answer only from the local store')
    .option('--no-cache', 'do not read the HTTP cache')
    .option('--no-history', 'do not record these evaluations')
    .option('-o, --output <file>', 'write the comparison to file instead of stdout')
    .option('--no-color', 'no colour in the terminal table')
    .action(async (targets: string[], options: Record<string, unknown>) => {
      const { runCompare } = await import('./run-compare.js');
      process.exitCode = await runCompare(targets, options);
    });

  outputOptions(
    program
      .command('score')
      .description('re-score saved evidence offline, to the identical report')
      .argument('<evidence>', 'an evidence file written by --save-evidence (- for stdin)'),
  ).action(async (file: string, options: Record<string, unknown>) => {
    const { runScore } = await import('./run-score.js');
    process.exitCode = await runScore(file, options);
  });

  program
    .command('history')
    .description('past evaluations of a target from the local store, with a sparkline')
    .argument('<target>', 'a target as given to check (express, @scope/pkg, npm:chalk)')
    .option('--json', 'print the series as JSON')
    .option('--limit <n>', 'show the last n evaluations (default: 50)')
    .action(async (target: string, options: { json?: boolean; limit?: string }) => {
      const { runHistory } = await import('./run-history.js');
      process.exitCode = await runHistory(target, options);
    });

  program
    .command('serve')
    .description('answer trust checks over HTTP: /v1/preflight, /v1/report, /v1/history (docs/serve.md)')
    .option('--host <host>', 'address to bind (default 127.0.0.1; 0.0.0.0 exposes it to the network)')
    .option('--port <port>', 'port to bind (default 8787; 0 picks a free one, printed on stdout)')
    .option('--token-file <file>', 'require a bearer token from this file (one a line)')
    .option('--log-level <level>', 'fatal, error, warn, info (default), debug or silent; logs go to stderr')
    .option('--concurrency <n>', 'evaluations at once (default 8)')
    .option('--max-queue <n>', 'distinct evaluations waiting or running before answering 429 (default 256)')
    .option('--timeout <seconds>', 'deadline of one request (default 30)')
    .option('--reuse <seconds>', 'a finished evaluation answers the same target again for this long (default 60; 0: never; 5 at most when a source was unavailable)')
    .option('--rate-limit <n>', 'at most n requests a minute from one client address (default: no limit)')
    .option('--cors-origin <origin>', 'let browser pages of this exact origin read the answers (repeatable; default: none)', collect)
    .option('--allowed-host <name>', 'answer this Host name besides loopback ones, refusing all others (repeatable; default: loopback names when bound to loopback, any name otherwise)', collect)
    .option('--max-connections <n>', 'open connections at most; past it a new one is closed unanswered (default 512)')
    .action(async (options: Record<string, unknown>) => {
      const { runServe } = await import('./run-serve.js');
      process.exitCode = await runServe(options);
    });

  program
    .command('mcp')
    .description('an MCP server on stdio: check_packages, audit_lockfile, target_history, compare_packages, find_alternatives for AI agents (docs/mcp.md)')
    .option('--http', 'streamable HTTP on 127.0.0.1 instead of stdio (POST /mcp)')
    .option('--port <port>', 'with --http: the port (default 8788; 0 picks a free one, printed on stdout)')
    .option('--token-file <file>', 'with --http: require a bearer token from this file (one a line)')
    .option('--log-level <level>', 'with --http: fatal, error, warn, info (default), debug or silent; logs go to stderr')
    .option('--allowed-host <name>', 'with --http: answer this Host name besides loopback ones (repeatable; default: loopback names only)', collect)
    .option('--max-connections <n>', 'with --http: open connections at most (default 512)')
    .option('--concurrency <n>', 'evaluations at once (default 8)')
    .option('--max-queue <n>', 'distinct evaluations waiting or running before a call is refused busy (default 256)')
    .action(async (options: Record<string, unknown>) => {
      const { runMcp } = await import('./run-mcp.js');
      process.exitCode = await runMcp(options);
    });

  const cache = program.command('cache').description('the local HTTP cache');
  cache
    .command('stats')
    .description('entries, size and the hit rate of the last run')
    .option('--json', 'print as JSON')
    .action(async (options: { json?: boolean }) => {
      const { runCacheStats } = await import('./run-cache.js');
      process.exitCode = await runCacheStats(options);
    });
  cache
    .command('clear')
    .description('remove every cached response (history is kept)')
    .action(async () => {
      const { runCacheClear } = await import('./run-cache.js');
      process.exitCode = await runCacheClear();
    });

  const all = (command: Command): Command[] => [command, ...command.commands.flatMap(all)];
  for (const command of all(program).slice(1)) command.exitOverride().configureOutput(program.configureOutput());
  return program;
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  // `nerq` alone asks what nerq does: the help, on stdout (commander would write it to stderr).
  if (argv.length === 0) {
    process.stdout.write(program.helpInformation());
    return 0;
  }
  // `-V` is the other common spelling of the version flag (commander takes one short flag: `-v`).
  if (argv[0] === '-V') argv = ['--version', ...argv.slice(1)];
  try {
    await program.parseAsync(argv, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are successes; every other commander error is a usage error (2, never 1).
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return 0;
      return 2;
    }
    if (error instanceof UsageError) {
      printError(error.message);
      return 2;
    }
    const message = error instanceof Error ? error.message : String(error);
    // A bug is not a verdict: report it on one line and say nothing was evaluated (3).
    printError(`internal error: ${message.split('\n')[0]} (please report it)`);
    return 3;
  }
}

