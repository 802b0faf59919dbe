import type { Adapter } from '../adapter.js';
import { PYPI_RULES } from './rules.js';

// The collector is loaded when a target of this ecosystem is first collected, so a run loads only
// the ecosystems it evaluates (docs/architecture.md, "Start-up").
export const PYPI_ADAPTER: Adapter = {
  rules: PYPI_RULES,
  collect: async (target, ctx) => (await import('./collect.js')).collectPypiTarget(target, ctx),
};
