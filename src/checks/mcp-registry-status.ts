/**
 * mcp-registry-status: the MCP Registry's status of the entry; `deprecated` caps the score below 50
 * with the registry's message. A status the answer does not give, or one nerq does not know, may be
 * a deprecated or deleted entry's: unknown, and the verdict held at CAUTION (docs/scoring.md §1:
 * missing data is never scored as good data).
 */
import { defineCheck, type CheckOutcome } from './define.js';
import { truncate } from './lib/text.js';

const MAX_MESSAGE_CHARS = 200;

export default defineCheck({
  id: 'mcp-registry-status',
  dimension: 'maintenance',
  weight: 3,
  needs: ['mcp'],
  title: 'Not deprecated in the MCP Registry',
  description:
    'The status the MCP Registry gives the entry: `active` scores 100; `deprecated` scores 0 and caps the overall score at 49.9 with the registry\'s message (a `deleted` entry is not found). Unknown when the answer carried no registry metadata or no status, or a status nerq does not know (named); the verdict is then held at CAUTION, since that entry may be deprecated or deleted.',
  messages: {
    active: 'Active in the MCP Registry',
    deprecated: 'Deprecated in the MCP Registry: {message}',
    unknown: 'Unknown: the registry answer carried no status',
    unrecognised: 'Unknown: the MCP Registry gives the status {status}, which nerq does not know',
  },
  evaluate: ({ mcp }): CheckOutcome => {
    if (mcp.status === null) {
      if (mcp.statusUnrecognised !== null) {
        const status = truncate(mcp.statusUnrecognised, 64);
        return { score: null, messageId: 'unrecognised', data: { status }, holdVerdict: `the MCP Registry gives the status ${JSON.stringify(status)}, which nerq does not know: the entry may be deprecated or deleted; the status active would lift this` };
      }
      return { score: null, messageId: 'unknown', holdVerdict: 'the MCP Registry answer carried no status: the entry may be deprecated or deleted; an answer with the status active would lift this' };
    }
    if (mcp.status === 'active') return { score: 100, messageId: 'active', data: { status: 'active' } };
    const message = truncate((mcp.statusMessage ?? '').trim() || 'no message given', MAX_MESSAGE_CHARS);
    return {
      score: 0,
      messageId: 'deprecated',
      data: { status: 'deprecated', message },
      caps: [{ id: 'mcp-deprecated', limit: 49.9, reason: `the MCP Registry marks ${mcp.name} deprecated: ${message}`, args: { server: mcp.name, message } }],
    };
  },
});
