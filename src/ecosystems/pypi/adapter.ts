import type { Adapter } from '../adapter.js';
import { collectPypiTarget } from './collect.js';
import { PYPI_RULES } from './rules.js';

export const PYPI_ADAPTER: Adapter = { rules: PYPI_RULES, collect: collectPypiTarget };
