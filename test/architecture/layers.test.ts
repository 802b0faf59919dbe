/**
 * The layer matrix (docs/architecture.md, "Layers"), transitively: no module imports from a
 * layer above its own, and no pure module (model, evidence, target and the ecosystem rules,
 * checks, scoring, report, render, docs) loads — directly or through any chain of runtime
 * imports — a module of an I/O layer (sources, store, pipeline, audit, app, cli), a `node:`
 * module, or a package not on the pure list (a terminal, HTTP or file-reading library). So
 * sources are reached only from the pipeline up, and the CLI only from the top. No module
 * imports itself back through any chain, type-only and dynamic imports included.
 */
import { describe, expect, it } from 'vitest';
import { importCycles, impureReach, layerOf, LAYERS, readTree, upwardImports } from './layers.js';

const tree = readTree(new URL('../../src/', import.meta.url));

describe('the layer matrix', () => {
  it('places every source file in a layer', () => {
    expect(tree.size).toBeGreaterThan(200);
    expect([...tree.keys()].filter((path) => layerOf(path) === null)).toEqual([]);
    expect(new Set([...tree.keys()].map(layerOf))).toEqual(new Set(LAYERS));
  });

  it('has no import up the layers (runtime or type)', () => {
    expect(upwardImports(tree)).toEqual([]);
  });

  it('keeps the pure layers pure through every chain of runtime imports', () => {
    expect(impureReach(tree)).toEqual([]);
  });

  it('has no import cycle, type-only and dynamic imports included', () => {
    expect(importCycles(tree)).toEqual([]);
  });

  describe('self-test on planted trees', () => {
    const planted = (files: Record<string, string>) => new Map(Object.entries(files));

    it('finds a check that reaches node:sqlite through a pure-looking helper', () => {
      const t = planted({
        'checks/x.ts': "import { h } from './lib/h.js';",
        'checks/lib/h.ts': "import { open } from '../../model/db.js';",
        'model/db.ts': "import { DatabaseSync } from 'node:sqlite';",
      });
      expect(upwardImports(t)).toEqual([]);
      expect(impureReach(t)).toContain('checks/x.ts → checks/lib/h.ts → model/db.ts → node:sqlite');
    });

    it('finds a pure module loading a package not on the pure list (one that reads files or the network)', () => {
      const t = planted({
        'checks/lib/npmrc.ts': "import npmConf from '@pnpm/npm-conf';\nimport { z } from 'zod';\nimport semver from 'semver/functions/valid.js';",
        'render/colour.ts': "import chalk from 'chalk';\nimport { createHash } from 'node:crypto';\nimport { readFileSync } from 'fs';",
      });
      expect(impureReach(t)).toEqual(['checks/lib/npmrc.ts → @pnpm/npm-conf', 'render/colour.ts → fs']);
    });

    it('finds scoring reaching a source two hops away, and the import that goes up', () => {
      const t = planted({
        'scoring/s.ts': "import { v } from '../checks/lib/v.js';",
        'checks/lib/v.ts': "import { get } from '../../sources/http/client.js';",
        'sources/http/client.ts': "import { request } from 'undici';",
      });
      expect(upwardImports(t)).toEqual(['checks/lib/v.ts (checks) imports sources/http/client.ts (sources)']);
      expect(impureReach(t)).toContain('scoring/s.ts → checks/lib/v.ts → sources/http/client.ts (sources)');
    });

    it('finds a front door imported from below, and a collector placed among the pure ecosystem rules', () => {
      const t = planted({
        'app/check.ts': "import { main } from '../cli/main.js';",
        'cli/main.ts': '',
        'ecosystems/npm/rules.ts': "import { collectNpm } from './collect.js';",
        'ecosystems/npm/collect.ts': "import { fetchPackument } from '../../sources/npm/registry.js';",
        'sources/npm/registry.ts': '',
      });
      expect(upwardImports(t)).toEqual([
        'app/check.ts (app) imports cli/main.ts (cli)',
        'ecosystems/npm/rules.ts (target) imports ecosystems/npm/collect.ts (pipeline)',
      ]);
      expect(impureReach(t)).toEqual(['ecosystems/npm/rules.ts → ecosystems/npm/collect.ts (pipeline)']);
    });

    it('finds one front door importing another (the shared pieces belong in front/)', () => {
      const t = planted({
        'mcp/http.ts': "import { clientErrorAnswer } from '../serve/client-error.js';\nimport { receiveTimeout } from '../front/receive-timeout.js';",
        'serve/client-error.ts': '',
        'front/receive-timeout.ts': '',
      });
      expect(upwardImports(t)).toEqual(['mcp/http.ts (mcp) imports serve/client-error.ts (serve), a sibling front door']);
    });

    it('finds a cycle closed by type-only imports (the shared model importing its users)', () => {
      const t = planted({
        'report/schema.ts': "import type { CheckId } from '../checks/define.js';",
        'checks/define.ts': "import type { Views } from './views/index.js';",
        'checks/views/index.ts': "import type { Evidence } from '../../evidence/schema.js';",
        'evidence/schema.ts': "import type { Dimension } from '../report/schema.js';",
        'checks/other.ts': "import { defineCheck } from './define.js';",
      });
      expect(importCycles(t)).toEqual(['checks/define.ts ↔ checks/views/index.ts ↔ evidence/schema.ts ↔ report/schema.ts']);
    });

    it('finds a cycle closed by a dynamic import, and a module importing itself', () => {
      const t = planted({
        'pipeline/check-target.ts': "import { ADAPTERS } from '../ecosystems/adapters.js';",
        'ecosystems/adapters.ts': "export const ADAPTERS = { mcp: () => import('./mcp/collect.js') };",
        'ecosystems/mcp/collect.ts': "import { checkTarget } from '../../pipeline/check-target.js';",
        'util/self.ts': "export * from './self.js';",
        'util/leaf.ts': '',
      });
      expect(importCycles(t)).toEqual(['ecosystems/adapters.ts ↔ ecosystems/mcp/collect.ts ↔ pipeline/check-target.ts', 'util/self.ts']);
    });

    it('ignores type-only imports for purity (they are erased) but not for the direction', () => {
      const t = planted({
        'checks/x.ts': "import type { Store } from '../store/open.js';",
        'store/open.ts': "import { DatabaseSync } from 'node:sqlite';",
      });
      expect(impureReach(t)).toEqual([]);
      expect(upwardImports(t)).toEqual(['checks/x.ts (checks) imports store/open.ts (store)']);
    });
  });
});
