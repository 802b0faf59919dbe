import type { Adapter } from '../adapter.js';
import { collectGithubTarget } from './collect.js';
import { GITHUB_RULES } from './rules.js';

export const GITHUB_ADAPTER: Adapter = { rules: GITHUB_RULES, collect: collectGithubTarget };
