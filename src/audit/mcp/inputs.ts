/**
 * `nerq audit --mcp` / `--mcp-config FILE`: the MCP servers configured on this machine and in the
 * audited project, as audit inputs. Each configuration file (clients.ts; a client's folder of
 * them, listed here) is read as untrusted data — a regular file of at most 1 MiB (Claude Code's
 * `.claude.json`, which holds its history too: 128 MiB), parsed by read-config.ts, nothing else
 * taken from it — and becomes one input, named with its client
 * and scope, whose dependencies are the npm and PyPI packages its servers launch. A remote URL
 * is kept (normalised: remote-url.ts) to be matched to the MCP Registry entry that declares it
 * (remotes.ts); a container image, a NuGet tool or a package a runner installs that nerq cannot
 * read is code nerq cannot inspect (`mcp-uninspected`: incomplete), and one started with flags that widen its reach a
 * policy finding too; code a launch fetches from a git repository, a URL or a registry it points
 * elsewhere is a remote entry no registry vouches for (launch.ts), as in a lockfile; every other
 * launch (a local file, a command nerq cannot place) is a note, so the audit lists it and never
 * drops it. A file found (not named) that cannot be read — too large, not a regular file,
 * unreadable — is an `mcp-config-unread` finding: the other files are audited, and the run is
 * incomplete. Nothing is started.
 */
import { open, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ParsedInput } from '../../lockfiles/types.js';
import { quote } from '../../lockfiles/text.js';
import { skippedEntry } from '../../lockfiles/source-kind.js';
import { LockfileError, type AuditWarning, type DeclaredDependency, type McpClientPlace, type SkippedEntry } from '../types.js';
import { isInside, namedInside, readTreeFile } from '../tree-file.js';
import { clientConfigLocations, type ClientConfigLocation, type LocationContext } from './clients.js';
import type { LaunchPackage } from './launch.js';
import { ociPinning, type OciPinning } from '../../checks/lib/oci.js';
import { mcpConfigCap, readMcpConfig, tooLarge, type ConfiguredServer } from './read-config.js';

export interface McpInputRequest extends LocationContext {
  /** Look in every client's places (`--mcp`). */
  discover: boolean;
  /** Files named with `--mcp-config` (relative to `cwd`). */
  files: readonly string[];
  cwd: string;
}

/** A server reached by URL, to be matched to the registry entry that declares the URL. */
export interface ConfiguredRemote {
  file: string;
  line: number | null;
  /** Who it is in messages: `MCP server "github"` (and its project). */
  who: string;
  /** Its key in the file, as written (what an MCP ignore entry names). */
  server: string;
  /** The normalised URL (scheme, host, path: remote-url.ts) — never shown, never sent. */
  url: string;
  /** What is shown: scheme and host. */
  origin: string;
  insecure: boolean;
}

export interface McpInputs {
  inputs: ParsedInput[];
  /** The places looked in (for the message when none holds a server). */
  looked: number;
  remotes: ConfiguredRemote[];
  /** Launches that decide the outcome by themselves (OUTCOME_FINDINGS): `mcp-widened-reach`, `mcp-fetched-script`, `mcp-uninspected`. */
  findings: AuditWarning[];
}

/** What one configuration file yields. */
export interface McpFileInput {
  input: ParsedInput;
  remotes: ConfiguredRemote[];
  findings: AuditWarning[];
}

/** How a file is named in the report: `~/…` under the home folder, relative under the project, else as given. */
function label(file: string, ctx: LocationContext): string {
  const rel = (from: string) => path.relative(from, file).split(path.sep).join('/');
  if (file.startsWith(ctx.project + path.sep)) return rel(ctx.project);
  if (file.startsWith(ctx.home + path.sep)) return `~/${rel(ctx.home)}`;
  return file.split(path.sep).join('/');
}

/** Why a configuration file was not read (an `mcp-config-unread` finding when it was found, not named). */
type UnreadReason = 'too-large' | 'not-a-file' | 'unreadable';

/** A configuration file's text, none (no such file), or why it could not be read. */
type ConfigRead = { kind: 'text'; text: string } | { kind: 'missing' } | { kind: 'unread'; reason: UnreadReason; message: string; size: number | null };

const unread = (reason: UnreadReason, message: string, size: number | null = null): ConfigRead => ({ kind: 'unread', reason, message, size });

/**
 * The text of a configuration in the audited project, which must resolve (links followed) inside
 * it, as every file read from the audited tree (tree-file.ts). Throws LockfileError for a link
 * to a file elsewhere: it is refused, not one of its lines is read.
 */
async function readInProject(file: string, shown: string, project: string): Promise<ConfigRead> {
  const cap = mcpConfigCap(file);
  const read = await readTreeFile(file, project, cap);
  switch (read.kind) {
    case 'text':
      return read;
    case 'missing':
      return { kind: 'missing' };
    case 'outside':
      throw new LockfileError(shown, null, 'resolves (through a symbolic link) outside the audited directory: not read');
    case 'not-a-file':
      return unread('not-a-file', 'not a regular file');
    case 'too-large':
      return unread('too-large', tooLarge(cap), read.size);
    case 'error':
      return unread('unreadable', `could not be read (${read.code})`);
  }
}

/** Configuration files one client folder may hold (Continue's `mcpServers/`); more is refused. */
export const MAX_FOLDER_FILES = 100;

/**
 * The configuration files of a client's folder: its entries with the extensions given, by name;
 * none when there is no folder. A project folder must resolve (links followed) inside the
 * project, as every file read from the audited tree: one linked elsewhere is refused, not listed.
 * Each file is then read as any other (a link among them to a file elsewhere is refused too).
 */
async function folderFiles(location: ClientConfigLocation, extensions: readonly string[], request: McpInputRequest): Promise<string[]> {
  const dir = location.file;
  const shown = label(dir, request);
  let names: string[];
  try {
    if (location.scope === 'project' && !isInside(await realpath(request.project), await realpath(dir))) {
      throw new LockfileError(shown, null, 'resolves (through a symbolic link) outside the audited directory: not read');
    }
    names = (await readdir(dir, { withFileTypes: true })).filter((e) => !e.isDirectory() && extensions.some((x) => e.name.toLowerCase().endsWith(x))).map((e) => e.name);
  } catch (error) {
    if (error instanceof LockfileError) throw error;
    return [];
  }
  if (names.length > MAX_FOLDER_FILES) throw new LockfileError(shown, null, `more than ${MAX_FOLDER_FILES} configuration files, not read`);
  return names.sort().map((name) => path.join(dir, name));
}

/** The text of a regular file of at most its cap (mcpConfigCap), none, or why it could not be read. */
async function readCapped(file: string): Promise<ConfigRead> {
  const cap = mcpConfigCap(file);
  let info;
  try {
    info = await stat(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown';
    return code === 'ENOENT' || code === 'ENOTDIR' ? { kind: 'missing' } : unread('unreadable', `could not be read (${code})`);
  }
  if (!info.isFile()) return unread('not-a-file', 'not a regular file');
  if (info.size > cap) return unread('too-large', tooLarge(cap), info.size);
  try {
    const handle = await open(file, 'r');
    try {
      // At most the cap and one byte, even if the file grows after stat; a buffer the size of the file, not of the cap.
      const chunks: Buffer[] = [];
      let total = 0;
      for (let size = info.size + 1; total <= cap; size = 1024 * 1024) {
        const chunk = Buffer.allocUnsafe(Math.min(size, cap + 1 - total));
        const { bytesRead } = await handle.read(chunk, 0, chunk.length, total);
        if (bytesRead === 0) break;
        chunks.push(chunk.subarray(0, bytesRead));
        total += bytesRead;
      }
      if (total > cap) return unread('too-large', tooLarge(cap), total);
      return { kind: 'text', text: (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString('utf8') };
    } finally {
      await handle.close();
    }
  } catch (error) {
    return unread('unreadable', `could not be read (${(error as NodeJS.ErrnoException).code ?? 'unknown'})`);
  }
}

/** A file found where a client keeps its configuration that could not be read: its servers are unknown, so the run is incomplete. */
function unreadFinding(shown: string, read: Extract<ConfigRead, { kind: 'unread' }>, place: McpClientPlace | undefined): AuditWarning {
  return {
    code: 'mcp-config-unread',
    message: `${shown}: ${read.message}: the MCP servers it lists are not audited`,
    details: { file: shown, line: null, reason: read.reason, size: read.size, client: place?.client ?? null },
  };
}

type Placed = { dependencies: DeclaredDependency[]; note?: string; remote?: ConfiguredRemote; findings?: AuditWarning[] } | { note: string } | { remote: ConfiguredRemote } | { findings: AuditWarning[] } | { fetched: SkippedEntry[] };

/** What an image reference says of the image, in words (lib/oci.ts, ociPinning). */
const PINNING_WORDS: Record<OciPinning, string> = {
  digest: 'pinned by digest',
  tag: 'pinned by tag only: the publisher can move it',
  latest: 'no tag or `latest`: whatever was pushed last runs',
  'foreign-registry': 'on an image registry the MCP Registry does not accept',
  malformed: 'not an OCI image reference',
};

const whoOf = (server: ConfiguredServer) => `MCP server ${quote(server.key)}${server.scope === null ? '' : ` (project ${quote(server.scope)})`}`;

/** A registry package a server installs, as a declared dependency at the server's line. */
function dependencyOf(server: ConfiguredServer, pkg: LaunchPackage): DeclaredDependency {
  return {
    ecosystem: pkg.ecosystem,
    name: pkg.name,
    version: pkg.version,
    spec: pkg.spec,
    direct: true,
    dev: false,
    file: server.file,
    line: server.line,
    workspace: null,
    resolved: null,
    via: [],
    mcpServer: server.key,
  };
}

/** One configured server as declared dependencies, code fetched from elsewhere, a remote to match, findings, or the note that says why it is none. */
function place(server: ConfiguredServer): Placed {
  const { launch } = server;
  const who = whoOf(server);
  switch (launch.kind) {
    case 'package': {
      const dependencies = [launch, ...launch.extra].map((pkg) => dependencyOf(server, pkg));
      // Code it runs besides its packages (`--node-options '-r ./x.js'`) is listed, as a local file is: not evaluable.
      const loads = launch.loads ?? [];
      const notes = loads.length === 0 ? [] : [`${who} also runs ${loads.join(', ')} with ${quote(launch.runner)}: not evaluable`];
      // A proxy (`npx mcp-remote <url>`) is a package, and the server it connects to a remote: what
      // the user trusts is that server (ecosystems/mcp/proxies.ts; docs/mcp.md, "Proxies").
      const proxied = launch.proxied;
      if (proxied !== undefined && 'local' in proxied) notes.push(`${who} connects through ${proxied.via} to a server on this machine (${proxied.local}): not evaluable`);
      const remote: ConfiguredRemote | undefined =
        proxied === undefined || !('url' in proxied)
          ? undefined
          : { file: server.file, line: server.line, who: `${who} (through ${proxied.via})`, server: server.key, url: proxied.url, origin: proxied.origin, insecure: proxied.insecure };
      // A URL given as a variable (`${input:url}`) is never echoed: unverified, as a remote no entry declares.
      const findings: AuditWarning[] =
        proxied !== undefined && 'unreadable' in proxied
          ? [{
              code: 'mcp-remote-unverified',
              message: `${server.file}: line ${server.line ?? '?'}: ${who} (through ${proxied.via}) connects to a URL nerq cannot read (a variable, or no http(s) URL): unverified, and its code cannot be inspected`,
              details: { file: server.file, line: server.line, server: server.key, origin: null, reason: 'unreadable-url', candidates: [] },
            }]
          : [];
      return { dependencies, ...(notes.length === 0 ? {} : { note: notes.join('; ') }), ...(remote === undefined ? {} : { remote }), ...(findings.length === 0 ? {} : { findings }) };
    }
    case 'fetched':
      // Unvouched like a lockfile's git or URL dependency: the run is incomplete until a review names it.
      return {
        fetched: launch.code.map((code) =>
          skippedEntry(
            code.ecosystem,
            code.name,
            server.file,
            server.line,
            { kind: 'remote', source: code.source, host: code.host },
            `line ${server.line ?? '?'}: ${who} runs code ${quote(launch.runner)} fetches from ${code.host ?? quote(code.source)}, which no registry vouches for`,
            // The client runs it itself, as it runs a package a server launches: direct, not for development.
            { direct: true, dev: false },
          ),
        ),
      };
    case 'image': {
      // Code nerq cannot inspect: read as far as its reference says (the same reading as an MCP
      // Registry entry's image, mcp-oci-images), never passed — docs/mcp.md, "Code nerq cannot inspect".
      const { pinning, registry } = ociPinning(launch.image);
      const where = `${server.file}: line ${server.line ?? '?'}`;
      const uninspected: AuditWarning = {
        code: 'mcp-uninspected',
        message: `${where}: ${who} runs the container image ${quote(launch.image)} (${PINNING_WORDS[pinning]}): its code cannot be inspected`,
        details: { file: server.file, line: server.line, server: server.key, kind: 'oci', image: launch.image, registry, pinning },
      };
      if (launch.widening.length === 0) return { findings: [uninspected] };
      const flags = launch.widening.join(', ');
      return {
        findings: [
          {
            code: 'mcp-widened-reach',
            message: `${where}: ${who} starts the container image ${quote(launch.image)} with ${flags}, a wider reach than a server needs: fails the policy`,
            details: { file: server.file, line: server.line, server: server.key, image: launch.image, flags: launch.widening },
          },
          uninspected,
        ],
      };
    }
    case 'script':
      return {
        findings: [{
          code: 'mcp-fetched-script',
          message: `${server.file}: line ${server.line ?? '?'}: ${who} runs a script ${quote(launch.runner)} fetches from ${launch.origin} at every start: no registry vouches for it, and its code cannot be inspected`,
          details: { file: server.file, line: server.line, server: server.key, runner: launch.runner, origin: launch.origin },
        }],
      };
    case 'nuget':
      return {
        findings: [
          {
            code: 'mcp-uninspected',
            message: `${server.file}: line ${server.line ?? '?'}: ${who} runs the NuGet tool ${quote(launch.identifier)} (NuGet packages are not evaluated yet): its code cannot be inspected`,
            details: { file: server.file, line: server.line, server: server.key, kind: 'nuget', identifier: launch.identifier },
          },
        ],
      };
    case 'remote':
      return { remote: { file: server.file, line: server.line, who, server: server.key, url: launch.url, origin: launch.origin, insecure: launch.insecure } };
    case 'local':
      return { note: `${who} runs a local ${launch.file === null ? 'program' : `file ${quote(launch.file)}`} with ${quote(launch.command)}: not evaluable` };
    case 'module':
      return { note: `${who} runs the installed Python module ${quote(launch.module)} with ${quote(launch.command)}: not evaluable` };
    default:
      // A package runner whose package nerq cannot read runs one all the same: code nobody
      // inspected, never a pass (as a container image is; docs/mcp.md, "Code nerq cannot inspect").
      if (launch.runsPackage === true) {
        return {
          findings: [{
            code: 'mcp-uninspected',
            message: `${server.file}: line ${server.line ?? '?'}: ${who} runs a package through ${quote(launch.command)} that nerq cannot read (${launch.why}): its code cannot be inspected`,
            details: { file: server.file, line: server.line, server: server.key, kind: 'unreadable-package', runner: launch.command, why: launch.why },
          }],
        };
      }
      return { note: `${who} runs ${quote(launch.command)}: ${launch.why}; not evaluable` };
  }
}

/** A configuration file's servers as an audit input, the remotes to match and the findings. */
export function mcpInput(servers: readonly ConfiguredServer[], file: string): McpFileInput {
  const dependencies: DeclaredDependency[] = [];
  const notes: string[] = [];
  const skipped: SkippedEntry[] = [];
  const remotes: ConfiguredRemote[] = [];
  const findings: AuditWarning[] = [];
  for (const server of servers) {
    const placed = place(server);
    if ('dependencies' in placed) {
      dependencies.push(...placed.dependencies);
      if (placed.note !== undefined) notes.push(`line ${server.line ?? '?'}: ${placed.note}`);
      if ('remote' in placed && placed.remote !== undefined) remotes.push(placed.remote);
      if ('findings' in placed && placed.findings !== undefined) findings.push(...placed.findings);
    }
    else if ('fetched' in placed) {
      skipped.push(...placed.fetched);
      notes.push(...placed.fetched.map((entry) => entry.note));
    } else if ('remote' in placed) remotes.push(placed.remote);
    else if ('findings' in placed) findings.push(...placed.findings);
    else notes.push(`line ${server.line ?? '?'}: ${placed.note}`);
  }
  return { input: { file, format: 'mcp-config', dependencies, notes, ...(skipped.length === 0 ? {} : { skipped }) }, remotes, findings };
}

export async function readMcpInputs(request: McpInputRequest): Promise<McpInputs> {
  const inputs: ParsedInput[] = [];
  const remotes: ConfiguredRemote[] = [];
  const findings: AuditWarning[] = [];
  const explicit = request.files.map((f) => path.resolve(request.cwd, f));
  const locations = clientConfigLocations(request);
  // A file where a client keeps its configuration is named with that client, found or named.
  const places = new Map(locations.map((l): [string, McpClientPlace] => [l.file, { client: l.client, scope: l.scope }]));
  const discovered: string[] = [];
  for (const location of request.discover ? locations : []) {
    if (location.folderOf === undefined) {
      discovered.push(location.file);
      continue;
    }
    for (const file of await folderFiles(location, location.folderOf, request)) {
      places.set(file, { client: location.client, scope: location.scope });
      discovered.push(file);
    }
  }
  const seen = new Set<string>();
  for (const file of [...explicit, ...discovered]) {
    if (seen.has(file)) continue;
    seen.add(file);
    const shown = label(file, request);
    const place = places.get(file);
    // The audited project's own files are the pull request's; the machine's and a named file elsewhere are the user's.
    const text = namedInside(request.project, file) ? await readInProject(file, shown, request.project) : await readCapped(file);
    if (text.kind === 'missing') {
      if (explicit.includes(file)) throw new LockfileError(shown, null, 'no such file');
      continue;
    }
    if (text.kind === 'unread') {
      // A file named on the command line is bad input; one found is a finding, and the others are audited.
      if (explicit.includes(file)) throw new LockfileError(shown, null, text.message);
      findings.push(unreadFinding(shown, text, place));
      continue;
    }
    const read = mcpInput(readMcpConfig(text.text, shown), shown);
    inputs.push(place === undefined ? read.input : { ...read.input, mcpClient: place });
    remotes.push(...read.remotes);
    findings.push(...read.findings);
  }
  return { inputs, looked: seen.size, remotes, findings };
}
