/**
 * SPDX JSON SBOMs: `packages[]` with an `externalRefs[]` entry of `referenceType: purl`. The
 * described packages (`documentDescribes`, `DESCRIBES`) are the project itself; the
 * relationships give the graph: `DEPENDS_ON`, `CONTAINS` and the production `*_DEPENDENCY_OF`
 * kinds are production edges, `DEV_DEPENDENCY_OF`, `TEST_DEPENDENCY_OF` and
 * `BUILD_DEPENDENCY_OF` dev edges. Direct = an edge from a described package; dev = reachable
 * from one, but not through production edges alone. Without dependency relationships every
 * package counts as direct and none as dev (a note says so). A package fetched from a git
 * repository or URL (sbom-purl.ts: its package URL's qualifiers, or its `downloadLocation`) is a
 * skipped entry, with the direct and dev flags the relationships can tell; so is one whose own
 * `name`/`versionInfo` are not its package URL's (sbom-purl.ts).
 */
import { z } from 'zod';
import { LockfileError, type DeclaredDependency, type SkippedEntry } from '../audit/types.js';
import { defineReader } from './define-reader.js';
import { reachable } from './graph.js';
import { parseJson } from './json-text.js';
import { fetchedComponent, purlPackage, SkipTally, unreadableComponent, type DeclaredIdentity } from './sbom-purl.js';
import { quote } from './text.js';
import type { InputReader, ParsedInput } from './types.js';
import { validateShape } from './validate.js';

const SpdxDocument = z.object({
  spdxVersion: z.string(),
  documentDescribes: z.array(z.string()).optional(),
  packages: z
    .array(
      z.object({
        SPDXID: z.string(),
        name: z.unknown().optional(),
        versionInfo: z.unknown().optional(),
        downloadLocation: z.unknown().optional(),
        externalRefs: z.array(z.object({ referenceType: z.string(), referenceLocator: z.string() })).optional(),
      }),
    )
    .optional(),
  relationships: z.array(z.object({ spdxElementId: z.string(), relationshipType: z.string(), relatedSpdxElement: z.string() })).optional(),
});

/** Relationship → edge direction and kind: `forward` means element → related. */
const EDGES: Record<string, { forward: boolean; dev: boolean }> = {
  DEPENDS_ON: { forward: true, dev: false },
  CONTAINS: { forward: true, dev: false },
  DEPENDENCY_OF: { forward: false, dev: false },
  RUNTIME_DEPENDENCY_OF: { forward: false, dev: false },
  OPTIONAL_DEPENDENCY_OF: { forward: false, dev: false },
  PROVIDED_DEPENDENCY_OF: { forward: false, dev: false },
  DEV_DEPENDENCY_OF: { forward: false, dev: true },
  TEST_DEPENDENCY_OF: { forward: false, dev: true },
  BUILD_DEPENDENCY_OF: { forward: false, dev: true },
};

export const readSpdx: InputReader = defineReader((text, file) => {
  const { value, lineOf } = parseJson(text, file, { depth: 5 });
  const doc = validateShape(SpdxDocument, value, file, lineOf);
  const packages = (doc.packages ?? []).map((pkg, index): SpdxPackage => {
    const refIndex = (pkg.externalRefs ?? []).findIndex((ref) => ref.referenceType === 'purl');
    const ref = pkg.externalRefs?.[refIndex];
    return {
      id: pkg.SPDXID,
      declared: { name: pkg.name, version: pkg.versionInfo },
      purl: ref === undefined ? null : { locator: ref.referenceLocator, line: () => lineOf(['packages', index, 'externalRefs', refIndex, 'referenceLocator']) },
      downloadLocation: typeof pkg.downloadLocation === 'string' ? { url: pkg.downloadLocation, line: lineOf(['packages', index, 'downloadLocation']) } : null,
    };
  });
  const relationships = (doc.relationships ?? []).map((r) => ({ from: r.spdxElementId, type: r.relationshipType, to: r.relatedSpdxElement }));
  return spdxInput(file, { describes: doc.documentDescribes ?? [], relationships, packages });
});

/** One SPDX package, whatever the document's syntax (JSON here, tag-value in spdx-tag-value.ts). */
export interface SpdxPackage {
  id: string;
  /** Its own name and version, as written. */
  declared: DeclaredIdentity;
  /** Its first `purl` external reference, with the line of its locator. */
  purl: { locator: string; line: () => number } | null;
  downloadLocation: { url: string; line: number } | null;
}

/** An SPDX document, whatever its syntax: the elements it says it describes, its relationships, its packages. */
export interface SpdxView {
  describes: readonly string[];
  relationships: readonly { from: string; type: string; to: string }[];
  packages: readonly SpdxPackage[];
}

function addEdge(edges: Map<string, string[]>, from: string, to: string): void {
  const list = edges.get(from);
  if (list === undefined) edges.set(from, [to]);
  else list.push(to);
}

/** The audit input an SPDX document gives, as the header says; the JSON and tag-value readers share it. */
export function spdxInput(file: string, doc: SpdxView): ParsedInput {
  const { relationships } = doc;
  const roots = new Set(doc.describes);
  for (const r of relationships) {
    if (r.type === 'DESCRIBES' && r.from === 'SPDXRef-DOCUMENT') roots.add(r.to);
    if (r.type === 'DESCRIBED_BY' && r.to === 'SPDXRef-DOCUMENT') roots.add(r.from);
  }
  const prodEdges = new Map<string, string[]>();
  const anyEdges = new Map<string, string[]>();
  for (const r of relationships) {
    const kind = EDGES[r.type];
    if (kind === undefined) continue;
    const [from, to] = kind.forward ? [r.from, r.to] : [r.to, r.from];
    // Appended in place: a copy per edge would make a package with many edges quadratic.
    addEdge(anyEdges, from, to);
    if (!kind.dev) addEdge(prodEdges, from, to);
  }
  const hasGraph = anyEdges.size > 0 && roots.size > 0;
  const direct = new Set([...roots].flatMap((root) => anyEdges.get(root) ?? []));
  const prod = reachable(roots, (id) => prodEdges.get(id) ?? []);
  const connected = reachable(roots, (id) => anyEdges.get(id) ?? []);
  const notes: string[] = [];
  if (!hasGraph) notes.push(`${file}: no dependency relationships from the described package: every package is taken as direct`);

  const tally = new SkipTally();
  const dependencies: DeclaredDependency[] = [];
  const skipped: SkippedEntry[] = [];
  for (const pkg of doc.packages) {
    if (roots.has(pkg.id)) continue;
    if (pkg.purl === null) {
      tally.noPurl();
      continue;
    }
    const { locator } = pkg.purl;
    const line = pkg.purl.line();
    const outcome = purlPackage(locator, pkg.declared.version);
    if (outcome.kind === 'invalid') throw new LockfileError(file, line, `${outcome.reason}: ${quote(locator)}`);
    if (outcome.kind === 'other-type') {
      tally.otherType(outcome.type);
      continue;
    }
    const isDev = hasGraph && connected.has(pkg.id) && !prod.has(pkg.id);
    if (outcome.kind === 'unreadable') {
      const entry = unreadableComponent(file, locator, outcome, line, hasGraph ? { direct: direct.has(pkg.id), dev: isDev } : {});
      notes.push(entry.note);
      skipped.push(entry);
      continue;
    }
    const location = pkg.downloadLocation === null ? [] : [pkg.downloadLocation];
    const entry = fetchedComponent(file, outcome, line, location, hasGraph ? { direct: direct.has(pkg.id), dev: isDev } : {}, pkg.declared);
    if (entry !== null) {
      notes.push(entry.note);
      skipped.push(entry);
      continue;
    }
    if (outcome.kind === 'fetched') continue;
    dependencies.push({
      ecosystem: outcome.ecosystem,
      name: outcome.name,
      version: outcome.version,
      spec: null,
      direct: hasGraph ? direct.has(pkg.id) : true,
      dev: isDev,
      file,
      line,
      workspace: null,
      resolved: outcome.resolved,
    });
  }
  notes.push(...tally.notes(file));
  return { file, format: 'spdx', dependencies, notes, skipped };
}
