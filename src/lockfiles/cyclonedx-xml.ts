/**
 * CycloneDX XML SBOMs (spec 1.2 to 1.6, namespace `http://cyclonedx.org/schema/bom/1.x`), what
 * cyclonedx-maven, cyclonedx-gradle, cyclonedx-dotnet and many scanners write by default: read
 * as the JSON reader reads the same SBOM (cyclonedx.ts, one shared function): `<components>`
 * (nested ones included) with a `<purl>`, `<scope>`, a component's `bom-ref` attribute and
 * `distribution` references, and the graph of `<dependencies>` (`<dependency ref>` holding the
 * `<dependency ref>`s it depends on) from the described component (`<metadata><component>`). The
 * XML is read without a document type declaration, entities beyond XML's own or nesting without
 * end (xml-text.ts).
 */
import { z } from 'zod';
import { LockfileError } from '../audit/types.js';
import { cycloneDxInput, type BomComponent } from './cyclonedx.js';
import { defineReader } from './define-reader.js';
import type { InputReader } from './types.js';
import { validateShape } from './validate.js';
import { parseXml, textOf } from './xml-text.js';

/** The namespace every CycloneDX XML document's elements are in, before its version. */
const NAMESPACE = 'http://cyclonedx.org/schema/bom/';

/** The elements that may repeat, by the path the parser gives them (xml-text.ts). */
const LIST = /(?:^|\.)(?:components\.component|dependencies\.dependency|dependency\.dependency|externalReferences\.reference)$/;

/** An element with text (or CDATA only) and no child element, given once. */
const Text = z.object({ '#text': z.string().optional(), '#cdata': z.unknown().optional() });

interface Component {
  'bom-ref'?: string | undefined;
  name?: z.infer<typeof Text> | undefined;
  group?: z.infer<typeof Text> | undefined;
  version?: z.infer<typeof Text> | undefined;
  purl?: z.infer<typeof Text> | undefined;
  scope?: z.infer<typeof Text> | undefined;
  externalReferences?: { reference?: { type?: string | undefined; url?: z.infer<typeof Text> | undefined }[] | undefined } | undefined;
  components?: { component?: Component[] | undefined } | undefined;
}
const Component: z.ZodType<Component> = z.lazy(() =>
  z.object({
    'bom-ref': z.string().optional(),
    name: Text.optional(),
    group: Text.optional(),
    version: Text.optional(),
    purl: Text.optional(),
    scope: Text.optional(),
    externalReferences: z.object({ reference: z.array(z.object({ type: z.string().optional(), url: Text.optional() })).optional() }).optional(),
    components: z.object({ component: z.array(Component).optional() }).optional(),
  }),
);
const Bom = z.object({
  metadata: z.object({ component: z.object({ 'bom-ref': z.string().optional() }).optional() }).optional(),
  components: z.object({ component: z.array(Component).optional() }).optional(),
  dependencies: z.object({ dependency: z.array(z.object({ ref: z.string(), dependency: z.array(z.object({ ref: z.string() })).optional() })).optional() }).optional(),
});

export const readCycloneDxXml: InputReader = defineReader((text, file) => {
  const { root, lineOf } = parseXml(text, file, (path) => LIST.test(path));
  const namespaces = Object.entries(root.value).filter(([name, value]) => /^xmlns(?::|$)/.test(name) && typeof value === 'string' && value.startsWith(NAMESPACE));
  if (root.name !== 'bom' || namespaces.length === 0) {
    throw new LockfileError(file, lineOf([]), `not a CycloneDX document: its root element is not a <bom> in the ${NAMESPACE}… namespace`);
  }
  const bom = validateShape(Bom, root.value, file, lineOf);
  const at = (path: readonly PropertyKey[]) => (node: unknown) => textOf(node, file, lineOf(path));
  const view = (component: Component, path: PropertyKey[]): BomComponent => ({
    ref: at(path)(component['bom-ref']),
    declared: { name: at([...path, 'name'])(component.name), group: at([...path, 'group'])(component.group), version: at([...path, 'version'])(component.version) },
    purl: at([...path, 'purl'])(component.purl),
    scope: at([...path, 'scope'])(component.scope),
    purlLine: () => lineOf([...path, 'purl']),
    distributions: () =>
      (component.externalReferences?.reference ?? []).flatMap((reference, i) => {
        const referencePath = [...path, 'externalReferences', 'reference', i];
        const url = at([...referencePath, 'url'])(reference.url);
        return reference.type === 'distribution' && url !== undefined ? [{ url, line: lineOf([...referencePath, 'url']) }] : [];
      }),
    components: (component.components?.component ?? []).map((child, i) => view(child, [...path, 'components', 'component', i])),
  });
  const dependencies = (bom.dependencies?.dependency ?? []).map((dependency, i) => {
    const path = ['dependencies', 'dependency', i];
    return { ref: at(path)(dependency.ref) ?? '', dependsOn: (dependency.dependency ?? []).map((on, j) => at([...path, 'dependency', j])(on.ref) ?? '') };
  });
  const rootRef = bom.metadata?.component?.['bom-ref'];
  return cycloneDxInput(file, {
    rootRef: rootRef === undefined ? undefined : at(['metadata', 'component'])(rootRef),
    dependencies,
    components: (bom.components?.component ?? []).map((component, i) => view(component, ['components', 'component', i])),
  });
});
