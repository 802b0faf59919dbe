import { defineConfig } from 'tsup';

// The CLI is bundled with its runtime dependencies so that the packed package starts fast
// and runs without fetching anything (a registry install does not run `prepare`).
export default defineConfig({
  entry: { cli: 'src/cli/main.ts' },
  format: ['esm'],
  target: 'node22',
  platform: 'node',
  outDir: 'dist',
  clean: true,
  splitting: false,
  sourcemap: false,
  dts: false,
  noExternal: [/.*/],
  banner: {
    js: "import { createRequire as __nerqCreateRequire } from 'node:module'; const require = __nerqCreateRequire(import.meta.url);",
  },
});
