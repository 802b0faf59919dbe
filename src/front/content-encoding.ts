/**
 * A request body sent compressed (`Content-Encoding: gzip`, `br`…): neither front door decodes one
 * (docs/serve.md, "Errors"; docs/mcp.md), so such a body is refused as 415 rather than read as
 * if it were not encoded — a compressed body failed as "not JSON", and a plain one labelled gzip
 * was taken as it came.
 */

/** Whether the header names a coding other than `identity` (several headers or codings included). */
export function namesBodyCoding(header: string | string[] | undefined): boolean {
  if (header === undefined) return false;
  const codings = (Array.isArray(header) ? header : [header]).flatMap((h) => h.split(',')).map((c) => c.trim().toLowerCase());
  return codings.some((c) => c !== '' && c !== 'identity');
}

/** The 415 answer's message for an encoded body. */
export const ENCODED_BODY_MESSAGE = 'the request body must be sent uncompressed: nerq takes no Content-Encoding but identity';
