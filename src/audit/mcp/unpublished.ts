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
import type { Report } from '../../report/schema.js';
import type { AuditSubject, PolicyFailure } from '../types.js';

/** The policy failure rule (and SARIF `policy/<rule>`) of such a launch. */
export const UNPUBLISHED_LAUNCH_RULE = 'mcp-package-missing';

const REGISTRY_WORDS: Record<'npm' | 'pypi', string> = { npm: 'the public npm registry', pypi: 'PyPI' };

/**
 * The failure of a launched package its public registry answered 404 for, at the configuration
 * line that launches it; null for any other outcome, or when `public` is false (the launch's
 * registry is not the public one).
 */
export function unpublishedLaunch(subject: AuditSubject, report: Report, publicRegistry: boolean): PolicyFailure | null {
  if (subject.ecosystem !== 'npm' && subject.ecosystem !== 'pypi') return null;
  if (!publicRegistry || report.error?.code !== 'not-found') return null;
  const at = subject.declaredIn[0];
  return {
    rule: UNPUBLISHED_LAUNCH_RULE,
    message: `${subject.name} is not published on ${REGISTRY_WORDS[subject.ecosystem]} (it answered 404): anyone may publish that name, and the MCP client runs it at its next start`,
    ...(at === undefined ? {} : { at: { file: at.file, line: at.line } }),
  };
}
