/**
 * The same SBOM in the other syntax of its format: a CycloneDX JSON document as CycloneDX XML
 * (the elements and attributes the CycloneDX 1.x XML schema gives the fields the readers use),
 * an SPDX JSON document as SPDX tag-value. Fields that are not strings are left out (XML and
 * tag-value have no other kind of value). The tag-value text gives every package a multi-line
 * `PackageComment` whose lines look like tags, which a reader must skip.
 */

type Json = Record<string, unknown>;

const escapeXml = (value: string): string => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);

function attributes(fields: Record<string, unknown>): string {
  return Object.entries(fields)
    .flatMap(([name, value]) => (typeof value === 'string' ? [` ${name}="${escapeXml(value)}"`] : []))
    .join('');
}

function element(name: string, value: unknown, indent: string): string[] {
  const text = str(value);
  return text === undefined ? [] : [`${indent}<${name}>${escapeXml(text)}</${name}>`];
}

function componentXml(component: Json, indent: string): string[] {
  const lines = [`${indent}<component${attributes({ type: component.type ?? 'library', 'bom-ref': component['bom-ref'] })}>`];
  const inner = `${indent}  `;
  lines.push(...element('group', component.group, inner), ...element('name', component.name ?? '', inner), ...element('version', component.version, inner));
  lines.push(...element('scope', component.scope, inner), ...element('purl', component.purl, inner));
  const references = list(component.externalReferences);
  if (references.length > 0) {
    lines.push(`${inner}<externalReferences>`);
    for (const reference of references) {
      lines.push(`${inner}  <reference${attributes({ type: reference.type })}>`, ...element('url', reference.url, `${inner}    `), `${inner}  </reference>`);
    }
    lines.push(`${inner}</externalReferences>`);
  }
  const children = list(component.components);
  if (children.length > 0) lines.push(`${inner}<components>`, ...children.flatMap((child) => componentXml(child, `${inner}  `)), `${inner}</components>`);
  lines.push(`${indent}</component>`);
  return lines;
}

/** A CycloneDX JSON document (parsed) as CycloneDX XML of its spec version. */
export function cycloneDxXml(bom: Json): string {
  const version = str(bom.specVersion) ?? '1.5';
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', `<bom xmlns="http://cyclonedx.org/schema/bom/${version}" version="1">`];
  const metadata = bom.metadata as Json | undefined;
  const root = metadata?.component as Json | undefined;
  if (root !== undefined) lines.push('  <metadata>', ...componentXml(root, '    '), '  </metadata>');
  const components = list(bom.components);
  if (components.length > 0) lines.push('  <components>', ...components.flatMap((component) => componentXml(component, '    ')), '  </components>');
  const dependencies = list(bom.dependencies);
  if (dependencies.length > 0) {
    lines.push('  <dependencies>');
    for (const dependency of dependencies) {
      const on = list(dependency.dependsOn as unknown).map((ref) => `      <dependency${attributes({ ref })}/>`);
      lines.push(...(on.length === 0 ? [`    <dependency${attributes({ ref: dependency.ref })}/>`] : [`    <dependency${attributes({ ref: dependency.ref })}>`, ...on, '    </dependency>']));
    }
    lines.push('  </dependencies>');
  }
  lines.push('</bom>', '');
  return lines.join('\n');
}

/** An SPDX JSON document (parsed) as SPDX tag-value. */
export function spdxTagValue(doc: Json): string {
  const lines = [
    `SPDXVersion: ${str(doc.spdxVersion) ?? 'SPDX-2.3'}`,
    'DataLicense: CC0-1.0',
    'SPDXID: SPDXRef-DOCUMENT',
    `DocumentName: ${str(doc.name) ?? 'document'}`,
    `DocumentNamespace: ${str(doc.documentNamespace) ?? 'https://spdx.example/document'}`,
    'Creator: Tool: nerq-test',
    'Created: 2026-01-01T00:00:00Z',
    '',
  ];
  for (const described of list(doc.documentDescribes)) lines.push(`Relationship: SPDXRef-DOCUMENT DESCRIBES ${String(described)}`);
  for (const pkg of list(doc.packages)) {
    lines.push('', `PackageName: ${str(pkg.name) ?? 'unnamed'}`, `SPDXID: ${String(pkg.SPDXID)}`);
    if (str(pkg.versionInfo) !== undefined) lines.push(`PackageVersion: ${str(pkg.versionInfo)}`);
    if (str(pkg.downloadLocation) !== undefined) lines.push(`PackageDownloadLocation: ${str(pkg.downloadLocation)}`);
    lines.push('PackageComment: <text>A comment whose lines look like tags:', 'SPDXID: SPDXRef-not-this-one', 'ExternalRef: PACKAGE-MANAGER purl pkg:npm/not-this-one@6.6.6', '</text>');
    for (const ref of list(pkg.externalRefs)) lines.push(`ExternalRef: ${str(ref.referenceCategory) ?? 'OTHER'} ${String(ref.referenceType)} ${String(ref.referenceLocator)}`);
  }
  lines.push('');
  for (const r of list(doc.relationships)) lines.push(`Relationship: ${String(r.spdxElementId)} ${String(r.relationshipType)} ${String(r.relatedSpdxElement)}`);
  lines.push('');
  return lines.join('\n');
}
