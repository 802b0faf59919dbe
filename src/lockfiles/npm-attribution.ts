/**
 * How npm-family lockfile readers turn one locked package into declared dependencies: a
 * package no manifest names is one transitive entry at its lockfile line; a direct one in a
 * single-package project is one entry at its lockfile line; in a workspace project each
 * workspace that declares it gets an entry at its own `package.json` (and the line there when
 * the manifest text was given), so annotations land where the dependency was added. An entry
 * no registry serves (source-kind.ts) that a workspace declares is reported at that line too.
 * A workspace folder is the lockfile's word: one that leaves the lockfile's folder (`../x`,
 * `a/../../x`, an absolute or drive path) is no place to report at — the entry stays at its
 * lockfile line, so no SARIF location or annotation points outside the project
 * (docs/security.md, "Printed text cannot take over the terminal or the document").
 */
import type { DeclaredDependency, SkippedEntry } from '../audit/types.js';
import { declarationLine, manifestAt, type DeclarationGroup, type Manifest } from './package-json.js';
import { joinPath } from './text.js';
import type { InputContext } from './types.js';

/** A manifest (root or workspace) naming a locked package. */
export interface RootDeclaration {
  /** Workspace directory relative to the project root (`.` for the root). */
  workspace: string;
  /** The key the manifest uses (an alias's own name). */
  key: string;
  group: DeclarationGroup;
}

export interface LockedPackage {
  name: string;
  version: string;
  dev: boolean;
  line: number | null;
  resolved: string | null;
  integrity?: string | null;
  lockedFor?: string | null;
}

/** Half a surrogate pair: no file system gives a name holding one (a JSON or YAML escape can write it). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** A workspace folder, relative to the lockfile's, that stays inside it (and can be a folder's name at all). */
function insideProject(workspace: string): boolean {
  if (workspace.startsWith('/') || workspace.includes('\\') || /^[A-Za-z]:/.test(workspace) || LONE_SURROGATE.test(workspace)) return false;
  const joined = joinPath(workspace);
  return joined !== '..' && !joined.startsWith('../');
}

export class Attribution {
  private readonly manifests = new Map<string, Manifest | null>();

  private readonly lockfile: string;
  private readonly rootDir: string;
  private readonly workspaceProject: boolean;
  private readonly context: InputContext | undefined;

  constructor(
    lockfile: string,
    rootDir: string,
    workspaceProject: boolean,
    context: InputContext | undefined,
  ) {
    this.lockfile = lockfile;
    this.rootDir = rootDir;
    this.workspaceProject = workspaceProject;
    this.context = context;
  }

  /** The manifest of a workspace from the context (parsed once), or null. */
  manifest(workspace: string): Manifest | null {
    if (!this.manifests.has(workspace)) this.manifests.set(workspace, manifestAt(this.context, this.rootDir, workspace));
    return this.manifests.get(workspace) ?? null;
  }

  entries(pkg: LockedPackage, all: readonly RootDeclaration[]): DeclaredDependency[] {
    const base = {
      ecosystem: 'npm' as const,
      name: pkg.name,
      version: pkg.version,
      spec: null,
      dev: pkg.dev,
      resolved: pkg.resolved,
      integrity: pkg.integrity ?? null,
      lockedFor: pkg.lockedFor ?? null,
    };
    if (all.length === 0) return [{ ...base, direct: false, file: this.lockfile, line: pkg.line, workspace: null }];
    const declarations = all.filter((d) => insideProject(d.workspace));
    if (!this.workspaceProject || declarations.length === 0) return [{ ...base, direct: true, file: this.lockfile, line: pkg.line, workspace: null }];
    const seen = new Set<string>();
    const out: DeclaredDependency[] = [];
    for (const declaration of declarations) {
      if (seen.has(declaration.workspace)) continue;
      seen.add(declaration.workspace);
      out.push({
        ...base,
        direct: true,
        file: joinPath(this.rootDir, declaration.workspace, 'package.json'),
        line: declarationLine(this.manifest(declaration.workspace), declaration.key, declaration.group),
        workspace: declaration.workspace,
        pinnedAt: { file: this.lockfile, line: pkg.line },
      });
    }
    return out;
  }

  /**
   * Where an entry no registry serves is reported: in a workspace project, at the first declaring
   * manifest whose text gives the line (as `entries` places packages); else at `line` of the
   * lockfile.
   */
  placeOf(line: number | null, declarations: readonly RootDeclaration[]): { file: string; line: number | null } {
    if (this.workspaceProject) {
      for (const declaration of declarations.filter((d) => insideProject(d.workspace))) {
        const at = declarationLine(this.manifest(declaration.workspace), declaration.key, declaration.group);
        if (at !== null) return { file: joinPath(this.rootDir, declaration.workspace, 'package.json'), line: at };
      }
    }
    return { file: this.lockfile, line };
  }

  /** `entry`, made at its lockfile line, reported where `placeOf` puts it (its note says so). */
  placed(entry: SkippedEntry, declarations: readonly RootDeclaration[]): SkippedEntry {
    const at = this.placeOf(entry.line, declarations);
    if (at.file === entry.file && at.line === entry.line) return entry;
    const note = entry.note.replace(`${entry.file}:${entry.line ?? '?'}: `, `${at.file}:${at.line ?? '?'}: `);
    return { ...entry, file: at.file, line: at.line, note };
  }
}
