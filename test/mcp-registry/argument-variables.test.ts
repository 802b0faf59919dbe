/**
 * An argument's `{variables}` filled in with the values the entry presets (fixtures/mcp-registry/
 * server.schema.2025-12-11.json, `InputWithVariables`), as a client passes them: on the registry's
 * own filesystem example (server-json-examples/05), as recorded and in the edits each case names.
 */
import { describe, expect, it } from 'vitest';
import { McpServerResponseSchema, type McpArgument } from '../../src/sources/mcp-registry/schema.js';
import { example, type ServerJson } from '../cli/mcp-helpers.js';

type Variable = Record<string, unknown>;
type Argument = Record<string, unknown> & { variables?: Record<string, Variable> };
type Package = Record<string, unknown> & { registryType: string; runtimeArguments?: Argument[] };

const OFFICIAL = 'io.modelcontextprotocol.registry/official';

/** The example's OCI package's runtime arguments as read, after `edit` of its first one. */
function mountRead(edit: (mount: Argument) => void = () => {}): McpArgument[] {
  const entry = example('05-filesystem-server-with-multiple-packages.json') as ServerJson & { packages: Package[] };
  const oci = entry.packages.find((p) => p.registryType === 'oci')!;
  edit(oci.runtimeArguments![0]!);
  const parsed = McpServerResponseSchema.parse({ server: entry, _meta: { [OFFICIAL]: { status: 'active' } } });
  return parsed.server.packages!.find((p) => p.registryType === 'oci')!.runtimeArguments!;
}

describe('argument variables', () => {
  it('as recorded: the preset target path is filled in, the source path the user chooses stays a template', () => {
    expect(mountRead()[0]).toMatchObject({ name: '--mount', value: 'type=bind,src={source_path},dst=/project' });
  });

  it.each([
    ['a default of /', { default: '/' }, 'type=bind,src=/,dst=/project'],
    ['a value, which wins over the default', { value: '/var/run/docker.sock', default: '/srv' }, 'type=bind,src=/var/run/docker.sock,dst=/project'],
    ['a secret variable: its preset is not read', { default: '/', isSecret: true }, 'type=bind,src={source_path},dst=/project'],
    ['a preset of another shape: left as written', { default: ['/'] }, 'type=bind,src={source_path},dst=/project'],
    ['an empty preset: left as written', { default: '' }, 'type=bind,src={source_path},dst=/project'],
  ])('edit — the source path given %s', (_label, preset, value) => {
    expect(mountRead((mount) => Object.assign(mount.variables!.source_path!, preset))[0]?.value).toBe(value);
  });

  it('variables of another shape never make the entry unreadable: the template stays', () => {
    for (const variables of ['x', ['/'], null, 7, { source_path: 'x' }]) {
      expect(mountRead((mount) => { mount.variables = variables as unknown as Record<string, Variable>; })[0]?.value).toBe('type=bind,src={source_path},dst={target_path}');
    }
  });
});
