import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'tsup';
import type { Plugin } from 'esbuild';

/**
 * zod's namespace re-exports all of its ~65 message locales, so a bundler keeps them all
 * (about 365 KB that every run would load). nerq uses only the English messages zod
 * configures by default: the locales index resolves to English alone.
 */
const zodEnglishOnly: Plugin = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer) ? { path: 'zod-locales', namespace: 'zod-english-only' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, () => ({
      contents: "export { default as en } from 'zod/v4/locales/en.js';",
      resolveDir: process.cwd(),
      loader: 'js',
    }));
  },
};

/** Where the build goes: dist/, or NERQ_BUILD_OUT (the bench's readable build). */
const OUT_DIR = process.env.NERQ_BUILD_OUT ?? 'dist';

// The CLI is bundled with its runtime dependencies so that the packed package starts fast
// and runs without fetching anything (a registry install does not run `prepare`). Their
// licences must travel with their code: dist/THIRD-PARTY-LICENSES.txt lists every bundled
// package with its licence text, from the bundler's own record of what it took.
export default defineConfig({
  entry: { cli: 'src/cli/bin.ts' },
  format: ['esm'],
  target: 'node22',
  platform: 'node',
  outDir: OUT_DIR,
  clean: true,
  // Code splitting keeps the commands' modules in chunks that `--version` never loads.
  splitting: true,
  sourcemap: false,
  dts: false,
  metafile: true,
  noExternal: [/.*/],
  esbuildPlugins: [zodEnglishOnly],
  // ASCII output (non-ASCII escaped): one non-ASCII character, even in a kept comment, makes V8
  // hold and scan a whole chunk as two-byte source. Whitespace and comments are dropped (names
  // are kept), so each run reads and decodes less. NERQ_READABLE_BUILD=1 keeps them: the bench
  // profiles such a build, attributing samples to modules by the bundler's `// src/…` comments.
  esbuildOptions(options) {
    options.charset = 'ascii';
    options.minifyWhitespace = process.env.NERQ_READABLE_BUILD !== '1';
  },
  // Keep `node:` specifiers: node:sqlite exists only under its prefixed name.
  removeNodeProtocol: false,
  // CommonJS dependencies bundled into ESM may read __filename/__dirname (@yarnpkg/lockfile does).
  shims: true,
  banner: {
    js: "import { createRequire as __nerqCreateRequire } from 'node:module'; const require = __nerqCreateRequire(import.meta.url);",
  },
  onSuccess: async () => writeThirdPartyLicenses(OUT_DIR),
});

function writeThirdPartyLicenses(outDir: string): void {
  const metafile = path.join(outDir, 'metafile-esm.json');
  const meta = JSON.parse(readFileSync(metafile, 'utf8')) as { inputs: Record<string, unknown> };
  rmSync(metafile);
  const roots = new Set<string>();
  for (const input of Object.keys(meta.inputs)) {
    const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match) roots.add(match[1]!);
  }
  const sections = [...roots]
    .map((root) => {
      const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
        name: string;
        version: string;
        license?: string | { type?: string };
      };
      const file = readdirSync(root).find((f) => /^(licen[cs]e|copying)(\.|-|$)/i.test(f));
      const text = file && existsSync(path.join(root, file)) ? readFileSync(path.join(root, file), 'utf8').trim() : '(the package ships no licence file; its package.json declares the licence above)';
      const license = typeof manifest.license === 'string' ? manifest.license : (manifest.license?.type ?? 'UNKNOWN');
      return { id: `${manifest.name}@${manifest.version}`, license, text };
    })
    .sort((a, b) => a.id.localeCompare(b.id));
  // Data bundled from the source tree under a licence of its own (fixtures/PROVENANCE.md).
  const data = 'src/ecosystems/npm/module-replacements/';
  if (Object.keys(meta.inputs).some((input) => input.startsWith(data))) {
    sections.push({ id: 'module-replacements (preferred manifest, data)', license: 'MIT', text: readFileSync(path.join(data, 'LICENSE'), 'utf8').trim() });
  }
  const body = sections.map((s) => `${'='.repeat(78)}\n${s.id} — ${s.license}\n${'='.repeat(78)}\n${s.text}\n`).join('\n');
  writeFileSync(
    path.join(outDir, 'THIRD-PARTY-LICENSES.txt'),
    `nerq bundles the following packages into dist/cli.js. Their licences follow.\n\n${body}`,
  );
}
