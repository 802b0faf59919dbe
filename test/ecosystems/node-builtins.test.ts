/**
 * The Node built-in names nerq knows (src/ecosystems/npm/node-builtins.ts) are the running Node's:
 * the top-level names of `module.builtinModules` a bare specifier loads (not the `node:`-only ones).
 */
import { builtinModules } from 'node:module';
import { describe, expect, it } from 'vitest';
import { isNodeBuiltinName, NODE_BUILTIN_NAMES } from '../../src/ecosystems/npm/node-builtins.js';

describe('NODE_BUILTIN_NAMES', () => {
  it("is the running Node's bare built-in names, top level", () => {
    const bare = builtinModules.filter((m) => !m.startsWith('node:') && !m.startsWith('_') && !m.includes('/'));
    expect([...NODE_BUILTIN_NAMES].sort()).toEqual([...new Set(bare)].sort());
  });

  it('a node:-only module, a scoped name and a subpath are not built-in names', () => {
    expect(['crypto', 'child_process', 'fs'].map(isNodeBuiltinName)).toEqual([true, true, true]);
    expect(['test', 'sqlite', 'sea', '@types/node', 'fs/promises', 'crypto-js'].map(isNodeBuiltinName)).toEqual([false, false, false, false, false, false]);
  });
});
