import type { Adapter } from '../adapter.js';
import { collectNpm } from './collect.js';
import { NPM_RULES } from './rules.js';

export const NPM_ADAPTER: Adapter = { rules: NPM_RULES, collect: collectNpm };
