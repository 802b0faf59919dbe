/**
 * A configured MCP server that launches a registry package its public registry does not have
 * (`npx -y <name>`, `uvx <name>`: the registry answered 404) runs whatever anyone publishes
 * under that name next, at the client's next start, with the secrets the configuration gives
 * it. `nerq check mcp:` caps an entry whose package is missing (`mcp-package-missing`,
 * docs/scoring.md); `nerq audit --mcp` fails such a launch with the same code (docs/mcp.md,
 * "A launch of an unpublished name"). Only a 404 from the registry anyone may publish to counts:
 * a registry that could not answer leaves the launch not evaluated (no finding from missing
 * data), and a name the user's configuration routes to another registry (a scope's registry in
 * `.npmrc`, a machine's own package index) is not judged by the public registry's answer.
 */
import { isPackageEcosystem, packageRulesOf } from '../../ecosystems/rules.js';
import { quote } from '../../lockfiles/text.js';
import type { Report } from '../../report/schema.js';
import type { AuditSubject, PolicyFailure } from '../types.js';
import type { McpFindingRef } from './ignore.js';

/** The policy failure rule (and SARIF `policy/<rule>`) of such a launch. */
export const UNPUBLISHED_LAUNCH_RULE = 'mcp-package-missing';

/** A configured server that launches the package: its file (as the report names it), line and key. */
export interface McpLaunchPlace {
  file: string;
  line: number | null;
  server: string;
}

/**
 * The finding of an unpublished launch: one failure per configured server that launches the
 * package (at its line), and those servers as an MCP ignore entry matches them — the entry's
 * failure is acknowledged only when an entry covers every one of them (policy.ts), so an
 * entry for one server never silences another that launches the same name.
 */
export interface UnpublishedLaunch {
  failures: PolicyFailure[];
  servers: McpFindingRef[];
}

/**
 * The finding of a launched package its public registry answered 404 for, at each configuration
 * line that launches it; null for any other outcome, or when `public` is false (the launch's
 * registry is not the public one). `launches`: the configured servers that launch the subject
 * (the subject's first declaration when none is known).
 */
export function unpublishedLaunch(subject: AuditSubject, report: Report, publicRegistry: boolean, launches: readonly McpLaunchPlace[] = []): UnpublishedLaunch | null {
  if (!isPackageEcosystem(subject.ecosystem)) return null;
  if (!publicRegistry || report.error?.code !== 'not-found') return null;
  const message = `${subject.name} is not published on ${packageRulesOf(subject.ecosystem).registry.publicRegistry} (it answered 404): anyone may publish that name, and the MCP client runs it at its next start`;
  if (launches.length === 0) {
    const at = subject.declaredIn[0];
    return { failures: [{ rule: UNPUBLISHED_LAUNCH_RULE, message, ...(at === undefined ? {} : { at: { file: at.file, line: at.line } }) }], servers: [] };
  }
  return {
    failures: launches.map((launch) => ({
      rule: UNPUBLISHED_LAUNCH_RULE,
      message: `MCP server ${quote(launch.server)}: ${message}`,
      at: { file: launch.file, line: launch.line },
    })),
    servers: launches.map((launch) => ({ code: UNPUBLISHED_LAUNCH_RULE, file: launch.file, server: launch.server, entry: null })),
  };
}
