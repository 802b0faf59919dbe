/**
 * An MCP Registry answer written in an older server.json schema, read in the current spelling
 * (fixtures/mcp-registry/docs/server-json-CHANGELOG.md; the older seeds under
 * fixtures/mcp-registry/legacy/ show each shape as the registry served it):
 *
 * - the pre-release shape (2025-05): a package's `registry_name` and `name` (its registry type and
 *   identifier; `docker` is an OCI image, whose package arguments were its `docker run` flags),
 *   the server's `version_detail.version`, a remote's `transport_type`;
 * - schema 2025-07-09 (to 2025-09-16): snake_case members (`registry_type`, `registry_base_url`,
 *   `file_sha256`, `runtime_hint`, `runtime_arguments`, `package_arguments`,
 *   `environment_variables`, `is_required`, `is_secret`, `value_hint`, `website_url`);
 * - until 2025-09-29: the status inside server.json (`status`), and the registry's metadata
 *   inside the entry's own `_meta` (`io.modelcontextprotocol.registry/official`, earlier
 *   `io.modelcontextprotocol.registry`) in snake_case (`is_latest`, `published_at`);
 * - an answer that is the entry itself, not `{ server, _meta }`.
 *
 * Only a member the current spelling leaves absent is filled from its older spelling: where both
 * are written, the current one is read. Nothing else is changed; unknown members stay unknown.
 */

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Each pair: the current member, then its older spellings, first found wins. */
function renamed(source: Json, pairs: readonly (readonly [string, ...string[]])[]): Json {
  const out: Json = { ...source };
  for (const [current, ...older] of pairs) {
    if (out[current] !== undefined && out[current] !== null) continue;
    const found = older.find((key) => source[key] !== undefined && source[key] !== null);
    if (found !== undefined) out[current] = source[found];
  }
  return out;
}

const mapped = (list: unknown, each: (item: Json) => Json): unknown => (Array.isArray(list) ? list.map((item) => (isObject(item) ? each(item) : item)) : list);

const KEY_VALUE: readonly (readonly [string, ...string[]])[] = [
  ['isRequired', 'is_required'],
  ['isSecret', 'is_secret'],
  ['valueHint', 'value_hint'],
  ['isRepeated', 'is_repeated'],
];

const keyValue = (item: Json): Json => renamed(item, KEY_VALUE);

/** The pre-release registry names of OCI images (`docker`, then `docker-hub`, before `oci`). */
const OCI_NAMES = new Set(['docker', 'docker-hub']);

function modernPackage(pkg: Json): Json {
  const out = renamed(pkg, [
    ['registryType', 'registry_type', 'registry_name'],
    ['registryBaseUrl', 'registry_base_url'],
    ['fileSha256', 'file_sha256'],
    ['runtimeHint', 'runtime_hint'],
    ['runtimeArguments', 'runtime_arguments'],
    ['packageArguments', 'package_arguments'],
    ['environmentVariables', 'environment_variables'],
  ]);
  // The pre-release `name` was the package's identifier; never read when `identifier` is written.
  if ((out.identifier === undefined || out.identifier === null) && pkg.registry_name !== undefined && typeof pkg.name === 'string') out.identifier = pkg.name;
  if (typeof out.registryType === 'string' && OCI_NAMES.has(out.registryType) && pkg.registryType === undefined) {
    out.registryType = 'oci';
    // The pre-release entries wrote the whole `docker run` line (`-i`, `--rm`, `-e NAME`, the
    // image) as package arguments: they are the container's flags, and are judged as such.
    if ((out.runtimeArguments === undefined || out.runtimeArguments === null) && Array.isArray(out.packageArguments)) out.runtimeArguments = out.packageArguments;
  }
  for (const key of ['runtimeArguments', 'packageArguments', 'environmentVariables']) out[key] = mapped(out[key], keyValue);
  return out;
}

function modernRemote(remote: Json): Json {
  const out = renamed(remote, [['type', 'transport_type']]);
  out.headers = mapped(out.headers, keyValue);
  return out;
}

/** The server's own members, as the current schema spells them. */
function modernServer(server: Json): Json {
  const out = renamed(server, [['websiteUrl', 'website_url']]);
  if ((out.version === undefined || out.version === null) && isObject(server.version_detail)) out.version = server.version_detail.version;
  out.packages = mapped(out.packages, modernPackage);
  out.remotes = mapped(out.remotes, modernRemote);
  return out;
}

const OFFICIAL = 'io.modelcontextprotocol.registry/official';
const OFFICIAL_BEFORE = 'io.modelcontextprotocol.registry';

/** The registry's metadata of the entry, read from wherever an answer of its time put it. */
function officialOf(envelopeMeta: unknown, server: Json): Json | undefined {
  const ownMeta = isObject(server._meta) ? server._meta : {};
  const found = [isObject(envelopeMeta) ? envelopeMeta[OFFICIAL] : undefined, ownMeta[OFFICIAL], ownMeta[OFFICIAL_BEFORE]].find(isObject);
  const official = found === undefined ? undefined : renamed(found, [['isLatest', 'is_latest'], ['publishedAt', 'published_at'], ['updatedAt', 'updated_at'], ['statusMessage', 'status_message']]);
  // The status server.json carried until schema 2025-09-29: read when the registry's metadata gives none.
  if (typeof server.status === 'string' && (official === undefined || official.status === undefined || official.status === null)) return { ...official, status: server.status };
  return official;
}

/** One item of an answer (`ServerResponse`, or the bare entry an older answer was). */
export function modernResponse(raw: unknown): unknown {
  if (!isObject(raw)) return raw;
  const bare = raw.server === undefined && typeof raw.name === 'string';
  const server = bare ? raw : raw.server;
  if (!isObject(server)) return raw;
  const official = officialOf(bare ? undefined : raw._meta, server);
  const envelopeMeta = !bare && isObject(raw._meta) ? raw._meta : {};
  return { server: modernServer(server), _meta: official === undefined ? envelopeMeta : { ...envelopeMeta, [OFFICIAL]: official } };
}
