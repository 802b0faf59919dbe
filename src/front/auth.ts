/**
 * Bearer tokens (docs/serve.md, "Tokens"): a request carries `Authorization: Bearer <token>`;
 * it is compared with each configured token in constant time (both sides hashed to the same
 * length first, so neither the content nor the length of a token leaks through timing). Tokens
 * are never logged or echoed.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** A checker for `Authorization` header values; null tokens: everything passes. */
export function bearerChecker(tokens: readonly string[] | null): (header: string | undefined) => boolean {
  if (tokens === null) return () => true;
  const expected = tokens.map(digest);
  return (header) => {
    const match = header === undefined ? null : /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
    const given = digest(match?.[1] ?? '');
    // Compare with every token, always: the time does not say which one (or none) matched.
    let ok = false;
    for (const token of expected) ok = timingSafeEqual(given, token) || ok;
    return ok && match !== null;
  };
}
