/**
 * CycloneDX JSON SBOMs: `components[]` (nested `components` included) with a `purl`. A
 * component whose `scope` is `optional` or `excluded` is not needed at run time (cyclonedx-npm
 * writes dev dependencies so): dev. Direct = what the dependency graph (`dependencies[]`)
 * says the described component (`metadata.component`) depends on; an SBOM without that graph
 * cannot tell, and every component counts as direct (a note says so). A component fetched from
 * a git repository or URL (sbom-purl.ts: its package URL's qualifiers, or a `distribution`
 * reference) is a skipped entry, with the direct and dev flags the SBOM can tell; so is one whose
 * own `group`/`name`/`version` are not its package URL's (sbom-purl.ts).
 */
import { z } from 'zod';
import { LockfileError, type DeclaredDependency, type SkippedEntry } from '../audit/types.js';
import { defineReader } from './define-reader.js';
import { chainsFrom } from './graph.js';
import { parseJson } from './json-text.js';
import { fetchedComponent, purlPackage, SkipTally, unreadableComponent, type DeclaredIdentity } from './sbom-purl.js';
import { quote } from './text.js';
import type { InputReader, ParsedInput } from './types.js';
import { validateShape } from './validate.js';

interface Component {
  'bom-ref'?: string | undefined;
  name?: unknown;
  group?: unknown;
  version?: unknown;
  purl?: string | undefined;
  scope?: string | undefined;
  externalReferences?: unknown[] | undefined;
  components?: Component[] | undefined;
}
const Component: z.ZodType<Component> = z.lazy(() =>
  z.object({
    'bom-ref': z.string().optional(),
    name: z.unknown().optional(),
    group: z.unknown().optional(),
    version: z.unknown().optional(),
    purl: z.string().optional(),
    scope: z.string().optional(),
    externalReferences: z.array(z.unknown()).optional(),
    components: z.array(Component).optional(),
  }),
);
const Bom = z.object({
  bomFormat: z.literal('CycloneDX'),
  specVersion: z.string().optional(),
  metadata: z.object({ component: z.object({ 'bom-ref': z.string().optional() }).optional() }).optional(),
  components: z.array(Component).optional(),
  dependencies: z.array(z.object({ ref: z.string(), dependsOn: z.array(z.string()).optional() })).optional(),
});

export const readCycloneDx: InputReader = defineReader((text, file) => {
  const { value, lineOf } = parseJson(text, file);
  const bom = validateShape(Bom, value, file, lineOf);
  const view = (component: Component, path: PropertyKey[]): BomComponent => ({
    ref: component['bom-ref'],
    declared: component,
    purl: component.purl,
    scope: component.scope,
    purlLine: () => lineOf([...path, 'purl']),
    distributions: () => distributions(component.externalReferences, path, lineOf),
    components: (component.components ?? []).map((child, i) => view(child, [...path, 'components', i])),
  });
  return cycloneDxInput(file, {
    rootRef: bom.metadata?.component?.['bom-ref'],
    dependencies: bom.dependencies,
    components: (bom.components ?? []).map((component, i) => view(component, ['components', i])),
  });
});

/** One CycloneDX component, whatever the document's syntax (JSON here, XML in cyclonedx-xml.ts). */
export interface BomComponent {
  ref: string | undefined;
  /** Its own `group`, `name` and `version`, as written. */
  declared: DeclaredIdentity;
  purl: string | undefined;
  scope: string | undefined;
  /** The line of its package URL. */
  purlLine: () => number;
  /** Its `distribution` references, with their lines. */
  distributions: () => { url: string; line: number }[];
  components: BomComponent[];
}

/** A CycloneDX document, whatever its syntax: the described component's `bom-ref`, the dependency graph, the components. */
export interface BomView {
  rootRef: string | undefined;
  dependencies: readonly { ref: string; dependsOn?: readonly string[] | undefined }[] | undefined;
  components: BomComponent[];
}

/** The audit input a CycloneDX document gives, as the header says; the JSON and XML readers share it. */
export function cycloneDxInput(file: string, bom: BomView): ParsedInput {
  const rootDeps = bom.rootRef === undefined ? undefined : bom.dependencies?.find((d) => d.ref === bom.rootRef);
  const direct = rootDeps === undefined ? null : new Set(rootDeps.dependsOn ?? []);
  const notes: string[] = [];
  if (direct === null) notes.push(`${file}: no dependency graph for the described component: every component is taken as direct`);

  const tally = new SkipTally();
  const dependencies: DeclaredDependency[] = [];
  const skipped: SkippedEntry[] = [];
  /** Each component's name in a dependency path, by `bom-ref`; and the transitive packages' refs. */
  const names = new Map<string, string>();
  const transitive: Array<{ index: number; ref: string }> = [];
  const stack = [...bom.components].reverse();
  while (stack.length > 0) {
    const component = stack.pop() as BomComponent;
    stack.push(...[...component.components].reverse());
    if (component.ref !== undefined && typeof component.declared.name === 'string') {
      const { group, name } = component.declared;
      names.set(component.ref, typeof group === 'string' && group.startsWith('@') ? `${group}/${name}` : name);
    }
    if (component.purl === undefined) {
      // The described component listed among the components too (pip's vendored SBOM): the project itself, not a package skipped.
      if (component.ref === undefined || component.ref !== bom.rootRef) tally.noPurl();
      continue;
    }
    const line = component.purlLine();
    const outcome = purlPackage(component.purl, component.declared.version);
    if (outcome.kind === 'invalid') throw new LockfileError(file, line, `${outcome.reason}: ${quote(component.purl)}`);
    if (outcome.kind === 'other-type') {
      tally.otherType(outcome.type);
      continue;
    }
    const ref = component.ref;
    const isDirect = direct === null || (ref !== undefined && direct.has(ref));
    const dev = component.scope === 'optional' || component.scope === 'excluded';
    if (outcome.kind === 'unreadable') {
      const entry = unreadableComponent(file, component.purl, outcome, line, { ...(direct === null ? {} : { direct: isDirect }), dev });
      notes.push(entry.note);
      skipped.push(entry);
      continue;
    }
    const entry = fetchedComponent(file, outcome, line, component.distributions(), { ...(direct === null ? {} : { direct: isDirect }), dev }, component.declared);
    if (entry !== null) {
      notes.push(entry.note);
      skipped.push(entry);
      continue;
    }
    if (outcome.kind === 'fetched') continue;
    if (ref !== undefined) names.set(ref, outcome.name);
    if (!isDirect && ref !== undefined) transitive.push({ index: dependencies.length, ref });
    dependencies.push({
      ecosystem: outcome.ecosystem,
      name: outcome.name,
      version: outcome.version,
      spec: null,
      direct: isDirect,
      dev,
      file,
      line,
      workspace: null,
      resolved: outcome.resolved,
    });
  }
  // The path from a direct dependency, over the graph the document records (`dependencies`).
  if (direct !== null) {
    const graph = new Map((bom.dependencies ?? []).map((d) => [d.ref, d.dependsOn ?? []]));
    const chains = chainsFrom(direct, (ref) => graph.get(ref) ?? [], (ref) => names.get(ref) ?? ref);
    for (const { index, ref } of transitive) {
      const via = chains.get(ref);
      if (via !== undefined) dependencies[index] = { ...(dependencies[index] as DeclaredDependency), via };
    }
  }
  notes.push(...tally.notes(file));
  return { file, format: 'cyclonedx', dependencies, notes, skipped };
}

/** A component's `distribution` references, with their lines: where it says it was fetched from. */
function distributions(references: unknown[] | undefined, path: readonly PropertyKey[], lineOf: (path: readonly PropertyKey[]) => number): { url: string; line: number }[] {
  return (references ?? []).flatMap((ref, i) => {
    if (typeof ref !== 'object' || ref === null) return [];
    const { type, url } = ref as { type?: unknown; url?: unknown };
    return type === 'distribution' && typeof url === 'string' ? [{ url, line: lineOf([...path, 'externalReferences', i, 'url']) }] : [];
  });
}
