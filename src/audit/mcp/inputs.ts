/**
 * `nerq audit --mcp` / `--mcp-config FILE`: the MCP servers configured on this machine and in the
 * audited project, as audit inputs. Each configuration file (clients.ts) is read as untrusted
 * data — a regular file of at most 1 MiB, parsed by read-config.ts, nothing else taken from
 * it — and becomes one input whose dependencies are the npm and PyPI packages its servers
 * launch; every other launch (a container image, a NuGet tool, a remote URL, a local file, a
 * command nerq cannot place) is a note, so the audit lists it and never drops it. Nothing is
 * started.
 */
import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ParsedInput } from '../../lockfiles/types.js';
import { quote } from '../../lockfiles/text.js';
import { LockfileError, type DeclaredDependency } from '../types.js';
import { clientConfigLocations, type LocationContext } from './clients.js';
import { MCP_CONFIG_MAX_BYTES, readMcpConfig, type ConfiguredServer } from './read-config.js';

export interface McpInputRequest extends LocationContext {
  /** Look in every client's places (`--mcp`). */
  discover: boolean;
  /** Files named with `--mcp-config` (relative to `cwd`). */
  files: readonly string[];
  cwd: string;
}

export interface McpInputs {
  inputs: ParsedInput[];
  /** The places looked in (for the message when none holds a server). */
  looked: number;
}

/** How a file is named in the report: `~/…` under the home folder, relative under the project, else as given. */
function label(file: string, ctx: LocationContext): string {
  const rel = (from: string) => path.relative(from, file).split(path.sep).join('/');
  if (file.startsWith(ctx.project + path.sep)) return rel(ctx.project);
  if (file.startsWith(ctx.home + path.sep)) return `~/${rel(ctx.home)}`;
  return file.split(path.sep).join('/');
}

/** The text of a regular file of at most the cap; null when there is no such file. Throws LockfileError otherwise. */
async function readCapped(file: string, shown: string): Promise<string | null> {
  let info;
  try {
    info = await stat(file);
  } catch {
    return null;
  }
  if (!info.isFile()) throw new LockfileError(shown, null, 'not a regular file');
  if (info.size > MCP_CONFIG_MAX_BYTES) throw new LockfileError(shown, null, `larger than ${MCP_CONFIG_MAX_BYTES / 1024 / 1024} MiB, not read`);
  // Read at most the cap even if the file grows after stat.
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(MCP_CONFIG_MAX_BYTES + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    if (bytesRead > MCP_CONFIG_MAX_BYTES) throw new LockfileError(shown, null, `larger than ${MCP_CONFIG_MAX_BYTES / 1024 / 1024} MiB, not read`);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

/** One configured server as a declared dependency, or the note that says why it is not one. */
function place(server: ConfiguredServer): { dependency: DeclaredDependency } | { note: string } {
  const { launch } = server;
  const who = `MCP server ${quote(server.key)}${server.scope === null ? '' : ` (project ${quote(server.scope)})`}`;
  switch (launch.kind) {
    case 'package':
      return {
        dependency: {
          ecosystem: launch.ecosystem,
          name: launch.name,
          version: launch.version,
          spec: launch.spec,
          direct: true,
          dev: false,
          file: server.file,
          line: server.line,
          workspace: null,
          resolved: null,
          via: [],
        },
      };
    case 'image': {
      const widened = launch.widening.length === 0 ? '' : `; it is started with ${launch.widening.join(', ')} (a wider reach than a server needs)`;
      return { note: `${who} runs the container image ${quote(launch.image)}: images are not evaluated yet${widened}` };
    }
    case 'nuget':
      return { note: `${who} runs the NuGet tool ${quote(launch.identifier)}: NuGet packages are not evaluated yet` };
    case 'remote':
      return {
        note: `${who} is a remote server at ${quote(launch.origin)}: its code cannot be inspected, not evaluated${launch.insecure ? '; it is reached over http, not https' : ''}`,
      };
    case 'local':
      return { note: `${who} runs a local ${launch.file === null ? 'program' : `file ${quote(launch.file)}`} with ${quote(launch.command)}: not evaluable` };
    default:
      return { note: `${who} runs ${quote(launch.command)}: ${launch.why}; not evaluable` };
  }
}

/** A configuration file's servers as an audit input. */
export function mcpInput(servers: readonly ConfiguredServer[], file: string): ParsedInput {
  const dependencies: DeclaredDependency[] = [];
  const notes: string[] = [];
  for (const server of servers) {
    const placed = place(server);
    if ('dependency' in placed) dependencies.push(placed.dependency);
    else notes.push(`line ${server.line ?? '?'}: ${placed.note}`);
  }
  return { file, format: 'mcp-config', dependencies, notes };
}

export async function readMcpInputs(request: McpInputRequest): Promise<McpInputs> {
  const inputs: ParsedInput[] = [];
  const explicit = request.files.map((f) => path.resolve(request.cwd, f));
  const discovered = request.discover ? clientConfigLocations(request).map((l) => l.file) : [];
  const seen = new Set<string>();
  for (const file of [...explicit, ...discovered]) {
    if (seen.has(file)) continue;
    seen.add(file);
    const shown = label(file, request);
    const text = await readCapped(file, shown);
    if (text === null) {
      if (explicit.includes(file)) throw new LockfileError(shown, null, 'no such file');
      continue;
    }
    inputs.push(mcpInput(readMcpConfig(text, shown), shown));
  }
  return { inputs, looked: seen.size };
}
