/** Targets as every front door reads them: the command line's own parser (docs/architecture.md, "Add a front door"). */
export { parseTarget } from '../target/parse.js';
export { TargetError, type Target } from '../target/types.js';
