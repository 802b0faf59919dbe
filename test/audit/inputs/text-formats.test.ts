/** The line-keeping parsers under the readers: JSON/JSONC, TOML layout. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blankJsonc, jsonLine, parseJson } from '../../../src/lockfiles/json-text.js';
import { tomlLayout, tomlLineOf } from '../../../src/lockfiles/toml-text.js';
import { lockfileErrorOf } from './helpers.js';

describe('JSON with lines', () => {
  it('records the line of every key and item, escaped keys and strings with brackets included', () => {
    const text = '{\n  "a\\u0062": {\n    "x{[": "}]\\"",\n    "list": [\n      1,\n      {"k": true}\n    ]\n  },\n  "z": null\n}\n';
    const { value, lines } = parseJson(text, 'f.json');
    expect(value).toEqual({ ab: { 'x{[': '}]"', list: [1, { k: true }] }, z: null });
    expect(jsonLine(lines, ['ab'])).toBe(2);
    expect(jsonLine(lines, ['ab', 'x{['])).toBe(3);
    expect(jsonLine(lines, ['ab', 'list', 1, 'k'])).toBe(6);
    expect(jsonLine(lines, ['z'])).toBe(9);
    // An unknown path gives its nearest known ancestor.
    expect(jsonLine(lines, ['ab', 'missing', 'deeper'])).toBe(2);
  });

  it('agrees with JSON.parse on any value, and knows the line of every top-level key', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (object) => {
        const text = JSON.stringify(object, null, 2);
        const { value, lines } = parseJson(text, 'f.json');
        expect(value).toEqual(JSON.parse(text));
        let expected = 2;
        for (const [key, member] of Object.entries(object)) {
          expect(jsonLine(lines, [key])).toBe(expected);
          expected += JSON.stringify(member, null, 2).split('\n').length;
        }
      }),
      { numRuns: 200 },
    );
  });

  it('blanks JSONC comments and trailing commas without moving anything', () => {
    const text = '{\n  // a comment, with a comma,\n  "a": [1, 2,], /* block\n comment */\n  "b": "// not a comment",\n}\n';
    const blank = blankJsonc(text);
    expect(blank).toHaveLength(text.length);
    expect(blank.split('\n').length).toBe(text.split('\n').length);
    expect(JSON.parse(blank)).toEqual({ a: [1, 2], b: '// not a comment' });
    expect(jsonLine(parseJson(text, 'f.jsonc', { jsonc: true }).lines, ['b'])).toBe(5);
  });

  it.each([
    ['{\n  "a": 1\n  "b": 2\n}', 2, "Expected ',' or '}' after property value"],
    ['{\n  "a": 1,\n  "b": ', 3, 'Unexpected end of JSON input'],
    ['{\n  "a": 1,\n  "b": x\n}', 3, "unexpected character 'x'"],
  ])('reports a syntax error at its line: %j', (text, line, detail) => {
    const error = lockfileErrorOf(() => parseJson(text, 'f.json'));
    expect(error.line).toBe(line);
    expect(error.message).toBe(`f.json:${line}: invalid JSON: ${detail}`);
  });
});

describe('TOML layout', () => {
  const text = `top = 1

[[package]]
name = "a"
dependencies = [
  { name = "b" },
]

[package.metadata]
note = """
[[package]]
name = "not a package"
"""

[[package]]
"name" = 'b'

[tool."poetry.x".deps]
requests = "^2"
`;

  it('finds tables, array blocks and keys, ignoring look-alikes inside multi-line strings and arrays', () => {
    const layout = tomlLayout(text);
    expect(layout.tables.map((t) => [t.header, t.array, t.line])).toEqual([
      ['', false, 1],
      ['package', true, 3],
      ['package.metadata', false, 9],
      ['package', true, 15],
      ['tool.poetry.x.deps', false, 18],
    ]);
    expect(layout.tables[1]?.keys.get('name')).toBe(4);
    expect(layout.tables[3]?.keys.get('name')).toBe(16);
    expect(tomlLineOf(layout, ['package', 1, 'name'])).toBe(16);
    expect(tomlLineOf(layout, ['package', 0, 'dependencies', 0, 'name'])).toBe(5);
    expect(tomlLineOf(layout, ['tool', 'poetry.x', 'deps', 'requests'])).toBe(19);
    expect(tomlLineOf(layout, ['top'])).toBe(1);
  });
});

describe('JSON lines to a depth', () => {
  it('records lines only as deep as asked, and still finds deeper ones on demand', () => {
    const text = '{\n  "packages": {\n    "a": {\n      "version": "1",\n      "deps": {\n        "b": "2"\n      }\n    },\n    "c": {}\n  }\n}\n';
    const parsed = parseJson(text, 'f.json', { depth: 2 });
    expect(parsed.lines.children?.get('packages')?.children?.get('a')).toEqual({ line: 3 });
    expect(parsed.lineOf(['packages', 'c'])).toBe(9);
    expect(parsed.lineOf(['packages', 'a', 'deps', 'b'])).toBe(6);
  });
});
