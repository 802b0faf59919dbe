/**
 * mcp-remotes: a server reached over `streamable-http` / `sse` runs code nobody can inspect.
 * Every remote must use https (http is a failure that caps the score); its host should belong to
 * the domain the namespace proves (lib/mcp.ts, hostBelongs); declared auth headers are noted. A URL is a
 * template (`{variables}`): what its literal part says is judged, what its variables set is
 * unknown. An entry with remotes and no package is held at CAUTION at best, and says so.
 */
import { defineCheck, type CheckOutcome } from './define.js';
import { hostBelongs, localNetworkHost, remoteParts, UNINSPECTED_LIMIT } from './lib/mcp.js';

export default defineCheck({
  id: 'mcp-remotes',
  dimension: 'security',
  weight: 3,
  needs: ['mcp'],
  title: 'Remote endpoints',
  description:
    'For an MCP Registry entry with remote endpoints, read as the URL templates they are (`{variables}` the user fills in): a remote whose host is on the user\'s own machine or network (loopback, private, shared or link-local addresses such as 169.254.169.254, `.local`, `.internal`) or whose literal scheme is not https (`http://`) scores 0 and caps the overall score at 49.9; a host — or, when variables set its leading labels (`https://{tenant}.example.com/mcp`), the literal domain every filled-in host lies under — that is not under the domain the namespace proves (`example.com` for `com.example/…`, verified by the registry; `owner.github.io` for `io.github.owner/…`) scores 60 — a host that only looks like the publisher\'s (`owner.xyz`, `mcp.owner.com` for `io.github.owner/…`) proves nothing; a remote whose variables set its scheme or whole host (`{url}`, `https://{host}/mcp`), or whose URL nerq cannot read (empty, no scheme, a host that does not parse), is unknown (neither https nor a failure); otherwise 100; declared headers are recorded and the secret ones named. A proxy package\'s remote (`mcp-remote <url>`, `supergateway --sse <url>`, `mcp-proxy <url>` in its package arguments) is judged as one. A remote-only entry (no package, or proxies only) runs code nobody can inspect: its verdict is at most CAUTION, its overall score is bounded at ' +
    `${UNINSPECTED_LIMIT} (\`mcp-uninspected\`, a ceiling) and, with no package, it is incomplete (mcp-packages); not applicable without remotes.`,
  messages: {
    https: 'Remotes use https on hosts of the publisher ({hosts}); secret headers: {secretHeaderList}',
    insecure: 'Remote {url} is not https',
    'local-network': 'Remote {url} points at {host}, an address on the user\'s own machine or network, not a publisher\'s server',
    'foreign-host': 'Remote host {host} is not under {domain}, the domain its namespace proves; secret headers: {secretHeaderList}',
    templated: 'Unknown: remote {url} is a template whose variables set its scheme or host, so where it connects is up to whoever fills it in; secret headers: {secretHeaderList}',
    unreadable: 'Unknown: remote {url} is not a URL nerq can read (no scheme, or no host it can parse), so where it connects is not known; secret headers: {secretHeaderList}',
  },
  evaluate: ({ mcp }): CheckOutcome => {
    if (mcp.remotes.length === 0) return { score: null, messageId: 'https', notApplicable: true };
    // Packages that are all proxies to a remote (`mcp-remote <url>`) run the remote's code, not their own.
    const proxies = new Set(mcp.remotes.flatMap((r) => (r.via === undefined ? [] : [r.via])));
    const remoteOnly = mcp.packages.length === 0 || mcp.packages.every((p) => proxies.has(`${p.registryType}:${p.identifier.toLowerCase()}`));
    // The number agrees with the verdict: what nobody can inspect is not scored as vouched for.
    const why = mcp.packages.length === 0 ? 'a remote-only MCP server runs code nobody can inspect' : 'an MCP server whose only packages are proxies to a remote runs code nobody can inspect';
    const uninspected = remoteOnly ? [{ id: 'mcp-uninspected', limit: UNINSPECTED_LIMIT, ceiling: true as const, reason: why, args: {} }] : [];
    const hold = remoteOnly ? { holdVerdict: `${why}; a published package to evaluate would lift this`, caps: uninspected } : {};
    const headers = [...new Set(mcp.remotes.flatMap((r) => r.headers))];
    const secretHeaders = [...new Set(mcp.remotes.flatMap((r) => r.secretHeaders))];
    // The auth headers it declares, named in the message (never a value: the registry records none).
    const base = { remoteOnly, headers, secretHeaders, secretHeaderList: secretHeaders.length === 0 ? 'none' : secretHeaders.join(', ') };
    // Judged on what the URL template says before the user fills it in (lib/mcp.ts, remoteParts).
    const remotes = mcp.remotes.map((r) => ({ url: r.url, ...remoteParts(r.url) }));
    // A host on the user's own machine or network (127.0.0.1, 10/8, 169.254.169.254, `.internal`):
    // the client is sent to the user's own services, whoever answers there.
    const local = remotes.find((r) => r.host !== null && localNetworkHost(r.host));
    if (local !== undefined) {
      return {
        score: 0,
        messageId: 'local-network',
        data: { ...base, url: local.url, host: local.host },
        ...hold,
        caps: [{ id: 'mcp-remote-local-network', limit: 49.9, reason: `remote ${local.url} points at the user's own machine or network`, args: { url: local.url } }, ...uninspected],
      };
    }
    const insecure = remotes.find((r) => r.scheme !== null && r.scheme !== 'https');
    if (insecure !== undefined) {
      return {
        score: 0,
        messageId: 'insecure',
        data: { ...base, url: insecure.url },
        ...hold,
        caps: [{ id: 'mcp-remote-insecure', limit: 49.9, reason: `remote ${insecure.url} is not https`, args: { url: insecure.url } }, ...uninspected],
      };
    }
    const domain = mcp.name.slice(0, mcp.name.indexOf('/')).split('.').reverse().join('.');
    const shown = (r: { host: string | null; templated: boolean }) => (r.templated ? `*.${r.host}` : (r.host ?? ''));
    const foreign = remotes.find((r) => r.host !== null && !hostBelongs(r.host, mcp.name));
    if (foreign !== undefined) {
      return { score: 60, messageId: 'foreign-host', data: { ...base, host: shown(foreign), domain }, ...hold };
    }
    // A URL whose variables set its scheme or whole host (`{url}`, `https://{host}/mcp`): what the
    // user will fill in is unknown — neither https nor a failure.
    const open = remotes.find((r) => r.scheme === null || r.host === null);
    if (open !== undefined) {
      // No `{variables}` to blame: the text is no URL (empty, no `scheme://`, a host that does not parse).
      const messageId = /[{}]/.test(open.url) ? 'templated' : 'unreadable';
      return { score: null, messageId, data: { ...base, url: open.url, scheme: open.scheme, domain }, ...hold };
    }
    return { score: 100, messageId: 'https', data: { ...base, hosts: [...new Set(remotes.map(shown))] }, ...hold };
  },
});
