/**
 * Lets Node run the bench's TypeScript straight from source (Node 24 strips types natively):
 * the sources import each other as `./x.js`, the convention tsc and vitest use in this repo,
 * and this hook falls back to `./x.ts` when no `.js` file exists. Load it with
 * `node --import ./bench/register.ts bench/run.ts`.
 */
import { registerHooks } from 'node:module';

registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      if (/^\.\.?\//.test(specifier) && specifier.endsWith('.js')) {
        return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
      }
      throw error;
    }
  },
});
