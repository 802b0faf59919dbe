/**
 * The I/O half of an ecosystem (docs/architecture.md, "Add an ecosystem"): its rules
 * (ecosystems/types.ts) and how a target's version is resolved and its evidence collected.
 * The pipeline reads the adapters through `ADAPTERS` (ecosystems/adapters.ts).
 */
import type { Evidence } from '../evidence/schema.js';
import type { McpSection, Report } from '../report/schema.js';
import type { RunContext } from '../pipeline/context.js';
import type { Target } from '../target/types.js';
import type { EcosystemRules } from './types.js';

/** A target's evidence, or why there is none (the pipeline turns it into an error report). */
export type Collected =
  /** `mcp`: the entry's package reports, nested in its report (report/schema.ts `mcp`). */
  | { kind: 'evidence'; evidence: Evidence; mcp?: McpSection }
  /**
   * `ambiguous`: a search matched several MCP servers (the message lists them); `bad-option`: an
   * option the target cannot honour (`--include-package` naming a package that does not verify).
   * Both are usage errors.
   */
  | { kind: 'error'; code: 'not-found' | 'version-not-found' | 'registry-unavailable' | 'ambiguous' | 'bad-option'; message: string; version?: string };

/**
 * The pipeline's evaluation of one target (pipeline/check-target.ts `checkTarget`), handed to a
 * collector that evaluates the packages its target names (an MCP Registry entry's): passed in,
 * not imported, so the pipeline and the adapters it calls form no import cycle.
 */
export type CheckNested = (target: Target, ctx: RunContext) => Promise<{ report: Report; evidence: Evidence | null }>;

export interface Adapter {
  rules: EcosystemRules;
  /** Resolve the target's version (ecosystems/<id>/resolve.ts) and collect its evidence; never throws for bad data. */
  collect(target: Target, ctx: RunContext, checkNested: CheckNested): Promise<Collected>;
}
