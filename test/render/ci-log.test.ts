import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inertCiCommands, inertCiCommandsInJson } from '../../src/render/ci-log.js';

/** What a runner would read as a command in one line (GitHub's two forms, Azure's). */
const isCommand = (line: string): boolean => /^[\s\u0085]*::/u.test(line) || /##(?:vso)?\[/i.test(line);

describe('inertCiCommands', () => {
  it.for<[string, string]>([
    ['##[stop-commands]x', '## [stop-commands]x'],
    ['a ###[error]b', 'a ### [error]b'],
    ['##VSO[task.setvariable variable=a]b', '##VSO [task.setvariable variable=a]b'],
    ['  ::error::x\nok :: fine', '  : :error::x\nok :: fine'],
    ['\u3000\u00a0::add-mask::x', '\u3000\u00a0: :add-mask::x'],
  ])('%j → %j', ([input, output]) => {
    expect(inertCiCommands(input)).toBe(output);
  });

  it('leaves no command in any text', () => {
    const pieces = fc.constantFrom('#', '[', ':', ' ', '\n', 'vso', 'VsO', '\u3000', 'x', ']');
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 40 }), (parts) => {
        const out = inertCiCommands(parts.join(''));
        expect(out.split('\n').filter(isCommand)).toEqual([]);
      }),
    );
  });
});

describe('inertCiCommandsInJson', () => {
  it('leaves no command and parses to the same data', () => {
    const text = fc.stringMatching(/^[#\[\]:v s o\nx]{0,30}$/);
    fc.assert(
      fc.property(fc.array(text, { maxLength: 4 }), fc.boolean(), (values, pretty) => {
        const json = JSON.stringify({ values, [values[0] ?? 'k']: values }, null, pretty ? 2 : undefined);
        const out = inertCiCommandsInJson(json);
        expect(out.split('\n').filter(isCommand)).toEqual([]);
        expect(JSON.parse(out)).toEqual(JSON.parse(json));
      }),
    );
  });
});
