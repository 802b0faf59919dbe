/**
 * What the module readers (go-mod.ts, cargo-lock.ts) give: the modules a Go or Rust project's
 * build pins, for a repository's dependency set (sources/github/repo-dependencies.ts) and for
 * `nerq audit` (lockfiles/index.ts turns them into the audit's `DeclaredDependency`). Their
 * ecosystems are not package targets of their own (ecosystems/osv-ecosystems.ts).
 */
import type { SkippedEntry } from '../audit/types.js';
import type { ModuleEcosystem } from '../ecosystems/osv-ecosystems.js';

export interface ModuleDependency {
  ecosystem: ModuleEcosystem;
  /** Go: the module path; Rust: the crate name. */
  name: string;
  /** The exact version the file pins (Go: with its `v`; pseudo-versions and `+incompatible` as written). */
  version: string;
  /** Declared by the project itself (go.mod: no `// indirect`; Cargo: a workspace member's dependency). */
  direct: boolean;
  /** Only needed for development (Cargo: reachable only through `[dev-dependencies]`); false when the file cannot tell. */
  dev: boolean;
  /** The packages between a direct dependency and this one; [] for a direct one; absent when the file cannot tell. */
  via?: string[];
  file: string;
  line: number | null;
}

export interface ModuleInput {
  file: string;
  /** `go.mod`, `Cargo.lock@4` … */
  format: string;
  dependencies: ModuleDependency[];
  /** What was skipped and why, one line each (a malformed line, an unknown directive). */
  notes: string[];
  /**
   * Code the build uses that no registry vouches for, one line each: a local-path `replace`,
   * a git or other-registry source. Not in `dependencies`: nerq cannot evaluate it.
   */
  unvouched: string[];
  /** The same entries as the audit lists them (source-kind.ts): a local `replace` directory, a git or other-registry crate; each `note` is its `unvouched` line. */
  skipped: SkippedEntry[];
}
