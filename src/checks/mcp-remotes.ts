/**
 * mcp-remotes: a server reached over `streamable-http` / `sse` runs code nobody can inspect.
 * Every remote must use https (http is a failure that caps the score); its host should belong to
 * the namespace's domain or the repository's owner; declared auth headers are noted. An entry
 * with remotes and no package is held at CAUTION at best, and says so.
 */
import { defineCheck, type CheckOutcome } from './define.js';
import { hostBelongs, remoteHost, UNINSPECTED_LIMIT } from './lib/mcp.js';

export default defineCheck({
  id: 'mcp-remotes',
  dimension: 'security',
  weight: 3,
  needs: ['mcp'],
  title: 'Remote endpoints',
  description:
    'For an MCP Registry entry with remote endpoints: any `http://` remote scores 0 and caps the overall score at 49.9, a host that belongs neither to the namespace\'s domain nor to the repository owner scores 60, otherwise 100; declared headers (secret ones by name) are recorded. A remote-only entry (no package) runs code nobody can inspect: its verdict is at most CAUTION and its overall score is capped at ' +
    `${UNINSPECTED_LIMIT}. Not applicable without remotes.`,
  messages: {
    https: 'Remotes use https on hosts of the publisher ({hosts})',
    insecure: 'Remote {url} is not https',
    'foreign-host': 'Remote host {host} belongs neither to {domain} nor to the repository owner',
  },
  evaluate: ({ mcp }): CheckOutcome => {
    if (mcp.remotes.length === 0) return { score: null, messageId: 'https', notApplicable: true };
    const remoteOnly = mcp.packages.length === 0;
    // The number agrees with the verdict: what nobody can inspect is not scored as vouched for.
    const uninspected = remoteOnly
      ? [{ id: 'mcp-uninspected', limit: UNINSPECTED_LIMIT, ceiling: true as const, reason: 'a remote-only MCP server runs code nobody can inspect', args: {} }]
      : [];
    const hold = remoteOnly
      ? { holdVerdict: 'a remote-only MCP server runs code nobody can inspect; a published package to evaluate would lift this', caps: uninspected }
      : {};
    const headers = [...new Set(mcp.remotes.flatMap((r) => r.headers))];
    const secretHeaders = [...new Set(mcp.remotes.flatMap((r) => r.secretHeaders))];
    const base = { remoteOnly, headers, secretHeaders };
    const insecure = mcp.remotes.find((r) => !/^https:\/\//i.test(r.url));
    if (insecure !== undefined) {
      return {
        score: 0,
        messageId: 'insecure',
        data: { ...base, url: insecure.url },
        ...hold,
        caps: [{ id: 'mcp-remote-insecure', limit: 49.9, reason: `remote ${insecure.url} is not https`, args: { url: insecure.url } }, ...uninspected],
      };
    }
    const hosts = mcp.remotes.map((r) => remoteHost(r.url));
    const domain = mcp.name.slice(0, mcp.name.indexOf('/')).split('.').reverse().join('.');
    const foreign = hosts.find((h) => h === null || !hostBelongs(h, mcp.name, mcp.repositoryOwner));
    if (foreign !== undefined) {
      return { score: 60, messageId: 'foreign-host', data: { ...base, host: foreign ?? '(a URL template)', domain }, ...hold };
    }
    return { score: 100, messageId: 'https', data: { ...base, hosts: [...new Set(hosts as string[])] }, ...hold };
  },
});
