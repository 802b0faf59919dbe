/** The runtime of one command: configuration from the environment, warnings on stderr, bad configuration a usage error. */
import { ConfigError, createRuntime, type Runtime, type RuntimeConfig } from '../app/runtime.js';
import { UsageError, warn } from './options.js';

export function cliRuntime(config: Omit<RuntimeConfig, 'env' | 'warn'>): Runtime {
  try {
    return createRuntime({ ...config, env: process.env, warn });
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
}
