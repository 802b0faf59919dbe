/**
 * mcp-runtime-reach: what an MCP Registry entry asks for when it is started. The secrets its
 * packages require (`environmentVariables[].isSecret`) are recorded by name; runtime arguments
 * that widen a container's reach (`--privileged`, a mounted Docker socket, host networking or
 * PID namespace, an added capability, the host's root mounted) are findings that cap the score,
 * read with the variables the entry presets filled in (sources/mcp-registry/schema.ts).
 */
import { defineCheck, type CheckOutcome } from './define.js';
import { wideningArguments } from './lib/mcp.js';

export default defineCheck({
  id: 'mcp-runtime-reach',
  dimension: 'security',
  weight: 3,
  needs: ['mcp'],
  title: 'What the MCP server asks for',
  description:
    'Reads the runtime arguments — as a client passes them, their `{variables}` filled in with the value the entry presets (a variable\'s `value`, else its `default`; one the user fills in, or a secret one, stays as written) — and environment variables of an MCP Registry entry\'s packages: `--privileged`, a mounted Docker socket (`docker.sock`), `--network host`, `--pid host`, `--cap-add` or the host\'s root mounted (`-v /:/…`) score 0 and cap the overall score at 49.9 (each one named), otherwise 100. The secret variables it requires are recorded by name (never a value). Not applicable without packages.',
  messages: {
    contained: 'No runtime argument widens its reach (secrets required: {secrets})',
    widened: '{package} is started with {arguments}',
  },
  evaluate: ({ mcp }): CheckOutcome => {
    if (mcp.packages.length === 0) return { score: null, messageId: 'contained', notApplicable: true };
    const secretList = [...new Set(mcp.packages.flatMap((p) => p.secretVariables))];
    const secrets = secretList.length === 0 ? 'none' : secretList.join(', ');
    for (const p of mcp.packages) {
      const found = wideningArguments(p.runtimeArguments);
      if (found.length === 0) continue;
      const args = found.map((f) => f.argument).join(', ');
      return {
        score: 0,
        messageId: 'widened',
        data: { package: `${p.registryType}:${p.identifier}`, arguments: args, findings: found.map((f) => f.id), secrets: secretList },
        caps: [{ id: 'mcp-widened-reach', limit: 49.9, reason: `${p.registryType}:${p.identifier} is started with ${args}`, args: { package: p.identifier, arguments: args } }],
      };
    }
    return { score: 100, messageId: 'contained', data: { secrets, secretVariables: secretList } };
  },
});
