/**
 * Minimal types for npm-pick-manifest (it ships none): only what nerq uses.
 * The package picks one manifest from a packument the way the npm CLI does.
 */
declare module 'npm-pick-manifest' {
  namespace pickManifest {
    /** The parts of a version's manifest that picking reads. */
    interface PickableManifest {
      version: string;
      deprecated?: string;
      engines?: Record<string, string>;
      [key: string]: unknown;
    }

    interface PickablePackument {
      name?: string;
      'dist-tags'?: Record<string, string>;
      versions?: Record<string, PickableManifest>;
      time?: Record<string, string>;
    }

    interface Options {
      /** Tag used when no spec is given (default `latest`). */
      defaultTag?: string;
      /** Only versions published before this date. */
      before?: string | Date | null;
      /** Node version checked against `engines.node`; `null` skips the check. */
      nodeVersion?: string | null;
      npmVersion?: string | null;
      includeStaged?: boolean;
      avoid?: string | null;
      avoidStrict?: boolean;
    }
  }

  /** Throws (code ETARGET / ENOVERSIONS) when nothing matches `wanted`. */
  function pickManifest(
    packument: pickManifest.PickablePackument,
    wanted?: string,
    opts?: pickManifest.Options,
  ): pickManifest.PickableManifest;

  export = pickManifest;
}
