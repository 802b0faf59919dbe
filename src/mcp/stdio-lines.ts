/**
 * stdin for the SDK's stdio transport (docs/mcp.md, "Bad messages on stdio"). The transport drops
 * a line it cannot read as a JSON-RPC message with no answer, so a client waiting on that request
 * waits forever. Lines pass through here first: one that is a message goes on to the transport
 * unchanged; one that is not is answered at once — `-32700` (parse error, `id: null`) for a line
 * that is not JSON or nests deeper than 64 levels; `-32700` with the line's `id` (a string or
 * number one) for JSON that names one key twice in an object or has a `__proto__` key (`--http`
 * refuses those bodies as parse errors too); `-32600` (invalid request) with the line's `id` for
 * JSON that is no message — and goes no further. Blank lines are skipped. Lines are
 * split in time linear in the input; a line longer than the transport's buffer is passed on as it
 * comes, for the transport to refuse as before.
 */
import { Transform, type Readable } from 'node:stream';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { MAX_JSON_DEPTH, namesAKeyTwice, namesAPrototypeKey, nestsDeeperThan } from '../front/json-depth.js';

/** The SDK's stdio buffer (STDIO_DEFAULT_MAX_BUFFER_SIZE). */
const MAX_LINE_BYTES = 10 * 1024 * 1024;

/** A JSON-RPC error answer to a line that is not a message. */
interface LineError {
  jsonrpc: '2.0';
  id: string | number | null;
  error: { code: -32700 | -32600; message: string };
}

const parseError = (message: string): LineError => ({ jsonrpc: '2.0', id: null, error: { code: -32700, message } });

/** The answer to a line that is not a JSON-RPC message, or null for one that is (or a blank line). */
function answerToLine(line: string): LineError | null {
  // What `--http` refuses before a body reaches the SDK is refused here too, each as the parse error it is there.
  if (nestsDeeperThan(line, MAX_JSON_DEPTH)) return parseError(`Parse error: the line nests deeper than ${MAX_JSON_DEPTH} levels`);
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return parseError('Parse error: the line is not JSON');
  }
  const id = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as { id?: unknown }).id : undefined;
  const echoed = typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
  // JSON, so its id is answered: a client waiting on that request does not wait forever.
  if (namesAKeyTwice(line)) return { ...parseError('Parse error: the line names one key twice in an object'), id: echoed };
  if (namesAPrototypeKey(line)) return { ...parseError('Parse error: the line has a __proto__ or constructor.prototype key'), id: echoed };
  if (JSONRPCMessageSchema.safeParse(value).success) return null;
  return { jsonrpc: '2.0', id: echoed, error: { code: -32600, message: 'Invalid Request: not a JSON-RPC 2.0 message' } };
}

/** `input` with every line that is not a message answered through `answer` (one line of JSON) and left out. */
export function answeringBadLines(input: Readable, answer: (line: string) => void): Readable {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let passing = false;
  const filter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      let start = 0;
      for (let end = chunk.indexOf(0x0a); end !== -1; end = chunk.indexOf(0x0a, start)) {
        const piece = chunk.subarray(start, end + 1);
        start = end + 1;
        if (passing) {
          // The end of a line too long to hold: the transport sees it whole and refuses it.
          this.push(piece);
          passing = false;
          continue;
        }
        const line = Buffer.concat([...pending, piece]);
        pending = [];
        pendingBytes = 0;
        const text = line.toString('utf8', 0, line.length - 1);
        if (text.trim() === '') continue;
        const reply = answerToLine(text);
        if (reply === null) this.push(line);
        else answer(`${JSON.stringify(reply)}\n`);
      }
      const rest = chunk.subarray(start);
      if (passing) this.push(rest);
      else if (rest.length > 0) {
        pending.push(rest);
        pendingBytes += rest.length;
        if (pendingBytes > MAX_LINE_BYTES) {
          this.push(Buffer.concat(pending));
          pending = [];
          pendingBytes = 0;
          passing = true;
        }
      }
      done();
    },
    flush(done) {
      // A last line without its newline is never a message the transport would read.
      done();
    },
  });
  input.on('error', (error) => filter.destroy(error));
  return input.pipe(filter);
}
