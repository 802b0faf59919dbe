/** What one run shares between its targets: the HTTP client, configuration and the clock. */
import type { NpmConfig } from '../sources/npm-config.js';
import type { Endpoints } from '../sources/endpoints.js';
import type { HttpClient } from '../sources/types.js';
import type { GateOptions } from '../scoring/gate.js';

export interface RunContext {
  http: HttpClient;
  npm: NpmConfig;
  endpoints: Endpoints;
  /** The evaluation instant: NERQ_NOW or the clock at the start of the run. */
  now: Date;
  category: string | null;
  gate: GateOptions;
}
