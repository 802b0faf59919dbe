/**
 * mcp-name-copy: an MCP Registry entry whose name copies a known server's name that carries its
 * publisher's own name (`io.github.evil/github-mcp-server` beside
 * `io.github.github/github-mcp-server`) borrows that publisher's standing: an agent or a user
 * choosing by name takes it for the original. The namespace proves who published the copy, not
 * that it is the server its name recalls. The comparison set is the real registry data nerq
 * records (lib/mcp-known-servers.ts, generated from fixtures/mcp-registry); a name that copies
 * none of it is not judged here.
 */
import { defineCheck, type CheckOutcome } from './define.js';
import { copiedServer, publisherOf } from './lib/mcp.js';
import { MCP_KNOWN_SERVERS } from './lib/mcp-known-servers.js';

export default defineCheck({
  id: 'mcp-name-copy',
  dimension: 'security',
  weight: 3,
  needs: ['mcp'],
  title: 'Name is not another publisher\'s',
  description:
    'Compares an MCP Registry entry\'s name with the real registry servers nerq records whose names carry their publisher\'s own name (`io.github.github/github-mcp-server`, `com.cloudflare/mcp-server-cloudflare`): the same name after the namespace (letter case, `-`, `_` and `.` aside) under a namespace of another publisher scores 0 and holds the verdict at CAUTION, naming the original. Not applicable when the name copies none of them (two projects sharing a plain name such as `mcp-google-sheets` are not judged).',
  messages: {
    copy: 'The name {server} copies {original}, published by {publisher}: it is another publisher\'s server under that name',
    original: 'The name copies no recorded server of another publisher',
  },
  evaluate: ({ mcp }): CheckOutcome => {
    const original = copiedServer(mcp.name, MCP_KNOWN_SERVERS);
    if (original === null) return { score: null, messageId: 'original', notApplicable: true };
    const publisher = publisherOf(original);
    return {
      score: 0,
      messageId: 'copy',
      data: { server: mcp.name, original, publisher },
      holdVerdict: `the name ${mcp.name} copies ${original}, published by ${publisher}: an agent choosing by name takes it for the original`,
    };
  },
});
