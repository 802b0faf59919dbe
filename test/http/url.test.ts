import { describe, expect, it } from 'vitest';
import { encodeSegment, joinUrl, originOf, UrlSegmentError, withQuery } from '../../src/sources/http/url.js';

describe('joinUrl', () => {
  it.each([
    ['keeps the base path', ['http://h:1/github', 'repos', 'a', 'b'], 'http://h:1/github/repos/a/b'],
    ['drops trailing slashes of the base', ['http://h:1/npm/', 'express'], 'http://h:1/npm/express'],
    ['encodes a scoped name as one segment', ['http://h/npm', '@scope/pkg'], 'http://h/npm/@scope%2fpkg'],
    ['works on a bare origin', ['https://example.test', 'v1', 'query'], 'https://example.test/v1/query'],
    ['encodes spaces, queries and hashes', ['http://h', 'a b?c#d'], 'http://h/a%20b%3Fc%23d'],
    ['encodes percent signs (no double decoding)', ['http://h', '%2e%2e'], 'http://h/%252e%252e'],
    ['returns the base alone without segments', ['http://h/x/'], 'http://h/x'],
  ])('%s', (_label, [base, ...segments], expected) => {
    expect(joinUrl(base as string, ...(segments as string[]))).toBe(expected);
  });

  it('never lets a segment climb out of the base path', () => {
    const url = new URL(joinUrl('http://h/npm', '..%2f..%2fadmin'));
    expect(url.pathname.startsWith('/npm/')).toBe(true);
  });

  it.each(['', '.', '..'])('refuses the segment %j', (segment) => {
    expect(() => joinUrl('http://h/npm', segment)).toThrow(UrlSegmentError);
  });

  it('writes the encoded slash in lower case, as npm does', () => {
    expect(encodeSegment('@babel/core')).toBe('@babel%2fcore');
  });
});

describe('withQuery', () => {
  it.each([
    ['http://h/p', { a: '1', b: 2 }, 'http://h/p?a=1&b=2'],
    ['http://h/p?x=1', { a: 'b c' }, 'http://h/p?x=1&a=b+c'],
    ['http://h/p', { a: undefined }, 'http://h/p'],
    ['http://h/p', { q: 'a&b=c' }, 'http://h/p?q=a%26b%3Dc'],
    ['http://h/p#frag', { a: true }, 'http://h/p?a=true#frag'],
  ] as const)('%s + %j', (url, query, expected) => {
    expect(withQuery(url, query)).toBe(expected);
  });
});

describe('originOf', () => {
  it('gives scheme, host and port', () => {
    expect(originOf('http://127.0.0.1:8080/a/b?c')).toBe('http://127.0.0.1:8080');
    expect(originOf('https://example.test:443/x')).toBe('https://example.test');
    expect(originOf('not a url')).toBeUndefined();
  });
});
