/**
 * zod schemas of the MCP Registry read API v0.1 answers nerq reads (the registry's openapi.yaml:
 * `ServerResponse`, `ServerList`, `ServerDetail`, `Package`, `RemoteTransport`). Lenient where
 * the registry is (optional members, null read as absent, unknown keys and members nerq does not
 * read — `icons`, `_meta` of publishers — ignored; a package's `transport` read only for its URL), strict where nerq relies on a member
 * (the server's name and version, a package's registry type and identifier, a remote's type and
 * URL). Lists are capped so a hostile answer cannot make nerq hold or print without bound. An
 * answer in an older schema's spelling is read in the current one first (legacy.ts).
 */
import { z } from 'zod';
import { modernResponse } from './legacy.js';

/** The registry's own metadata key in `_meta`. */
export const OFFICIAL_META = 'io.modelcontextprotocol.registry/official';

const MAX_ITEMS = 64;
const shortText = (max: number) => z.string().max(max);
/**
 * An optional member: absent, or `null` as a registry that writes every member may send it —
 * read alike as absent, so one null does not make a whole entry unreadable.
 */
const optional = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v): z.output<T> | undefined => v ?? undefined);

/**
 * A member nerq only shows or lists (a description, a title, a flag such as `isSecret`): one of
 * another type is read as absent and a long text is cut, so it never makes the whole entry
 * unreadable. Members a check judges keep their strict shape above.
 */
const shownText = (max: number) => z.unknown().transform((v): string | undefined => (typeof v === 'string' ? v.slice(0, max) : undefined)).optional();
const shownFlag = z.unknown().transform((v): boolean | undefined => (typeof v === 'boolean' ? v : undefined)).optional();
/** An argument's value: the schema's rule for inputs turns a number or boolean into its decimal or `true`/`false` text. */
const argumentText = (max: number) =>
  z.preprocess((v) => (typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean' ? String(v) : v, optional(shortText(max)));

/**
 * `repository.id`, the forge's id of the repository (a string in the schema): a number — as
 * GitHub's own answer spells the id — is read alike; any other shape is read as absent, since it
 * feeds one check (mcp-repository-id), not the whole entry.
 */
const RepositoryIdSchema = z.unknown().transform((v): string | undefined => {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return String(v);
  if (typeof v === 'string' && v.trim() !== '' && v.length <= 128) return v.trim();
  return undefined;
}).optional();

/**
 * `repository` (an object in the schema). A string, as some entries write it, is read as the
 * repository's URL when it is an http(s) URL; any other shape, and a `url` that is not text of at
 * most 2048 characters, is read as absent — the entry then names no source repository and its
 * repository checks are unknown (`no-source-repository`), never a pass (docs/scoring.md §1).
 */
const repositoryUrl = (v: unknown): string | undefined => (typeof v === 'string' && v.length <= 2048 ? v : undefined);
const RepositorySchema = z.preprocess(
  (v) => {
    if (typeof v === 'string') {
      const url = v.trim();
      return /^https?:\/\//i.test(url) && url.length <= 2048 ? { url } : undefined;
    }
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : undefined;
  },
  optional(z.object({ url: z.unknown().transform(repositoryUrl).optional(), source: shownText(64), id: RepositoryIdSchema, subfolder: shownText(512) })),
);

/** Variables of one argument read at most, and the longest name and preset read of each. */
const MAX_VARIABLES = 64;

/**
 * An argument's `variables` (an Input each, server.schema.2025-12-11.json `InputWithVariables`):
 * the value the entry itself gives each one — its `value`, else its `default`, as a client fills
 * it in unless the user types another. A variable the user must fill in (no preset), a secret one
 * (its preset is not read, so it never reaches a report) and one of another shape are left out:
 * its `{name}` stays as written. Never refuses the entry: this only fills in templates.
 */
const VariablesSchema = z
  .unknown()
  .transform((v): Record<string, string> => {
    const out: Record<string, string> = {};
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return out;
    for (const [key, input] of Object.entries(v).slice(0, MAX_VARIABLES)) {
      if (key.length > 256 || typeof input !== 'object' || input === null || Array.isArray(input)) continue;
      const { value, default: preset, isSecret } = input as Record<string, unknown>;
      if (isSecret === true) continue;
      const given = [value, preset].find((x) => (typeof x === 'string' && x !== '') || (typeof x === 'number' && Number.isFinite(x)) || typeof x === 'boolean');
      if (given === undefined || String(given).length > 2048) continue;
      out[key] = String(given);
    }
    return out;
  })
  .optional();

/** `{name}` in an argument's text replaced by the value its variable is given; any other left as written. */
const filledIn = (text: string | undefined, variables: Readonly<Record<string, string>>): string | undefined =>
  text?.replace(/\{([^{}]{1,256})\}/g, (whole, key: string) => (Object.hasOwn(variables, key) ? (variables[key] as string) : whole));

/**
 * A runtime or package argument, its `value` and `default` read as a client passes them: with the
 * `{variables}` the entry presets filled in (`-v {socket}:/var/run/docker.sock` whose `socket`
 * defaults to `/var/run/docker.sock`), so a check judges what is started, not the template.
 */
const ArgumentSchema = z
  .object({
    type: optional(z.string().max(32)),
    name: optional(shortText(256)),
    value: argumentText(2048),
    default: argumentText(2048),
    valueHint: shownText(256),
    isSecret: shownFlag,
    variables: VariablesSchema,
  })
  .transform(({ variables, ...argument }) =>
    variables === undefined || Object.keys(variables).length === 0
      ? argument
      : { ...argument, value: filledIn(argument.value, variables), default: filledIn(argument.default, variables) },
  );
export type McpArgument = z.infer<typeof ArgumentSchema>;

/**
 * Whether an Input's `value` or `default` is set (the entry, not the user, gives the variable a
 * value): only that is read, never the text, which may be long or of another type.
 */
const PresetSchema = z.unknown().transform((v): boolean => v !== undefined && v !== null && v !== '').optional();

const KeyValueSchema = z.object({
  name: shortText(256),
  description: shownText(4096),
  isRequired: shownFlag,
  isSecret: shownFlag,
  value: PresetSchema,
  default: PresetSchema,
});

/**
 * An entry's environment variables or a remote's headers: an item with no name can be neither set
 * nor sent, and is left out; a list of another shape (a headers map) is read as none.
 */
const keyValues = z.preprocess(
  (v) => (Array.isArray(v) ? v.filter((item) => typeof item === 'object' && item !== null && typeof (item as { name?: unknown }).name === 'string') : undefined),
  optional(z.array(KeyValueSchema).max(MAX_ITEMS)),
);

/**
 * A package's `transport`: only the URL of an HTTP transport (the server the client connects to
 * once the package is started; `http://localhost:{--port}/mcp` in the schema's examples) and
 * its headers' names are read. Any other shape is read as none, so one odd transport does not
 * make the whole entry unreadable.
 */
const TransportSchema = z.unknown().transform((v): { url: string; type: string; headers: string[]; secretHeaders: string[] } | undefined => {
  if (typeof v !== 'object' || v === null) return undefined;
  const t = v as { type?: unknown; url?: unknown; headers?: unknown };
  if (typeof t.url !== 'string' || t.url.trim() === '' || t.url.length > 2048) return undefined;
  const headers = (Array.isArray(t.headers) ? t.headers.slice(0, MAX_ITEMS) : []).filter(
    (h): h is { name: string; isSecret?: unknown } => typeof h === 'object' && h !== null && typeof (h as { name?: unknown }).name === 'string' && (h as { name: string }).name.length <= 256,
  );
  return {
    url: t.url,
    type: typeof t.type === 'string' ? t.type.slice(0, 32) : 'unknown',
    headers: headers.map((h) => h.name),
    secretHeaders: headers.filter((h) => h.isSecret === true).map((h) => h.name),
  };
}).optional();

/**
 * A package member a check judges, written in a shape nerq cannot read (another type than text,
 * or longer than any such value is: a number as the version, a runtime hint of 100 characters).
 * Neither cut nor read as absent — a cut value, or the registry type's default in its place, would
 * be a made-up value judged as the entry's — but named, with why, in the package's `unreadable`,
 * so that what judges it says it could not (ecosystems/mcp/collect.ts: the package not evaluated).
 */
type Unreadable = { unreadable: string };
const judgedText = (max: number) =>
  z
    .unknown()
    .transform((v): string | Unreadable | undefined => {
      if (v === undefined || v === null) return undefined;
      if (typeof v === 'string') return v.length <= max ? v : { unreadable: `over ${max} characters` };
      return { unreadable: `${Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : `a ${typeof v}`}, not text` };
    })
    .optional();

/** The judged members read whole, or moved to `unreadable` (`version (a number, not text)`). */
function readable<T extends { version?: string | Unreadable | undefined; runtimeHint?: string | Unreadable | undefined; registryBaseUrl?: string | Unreadable | undefined }>(pkg: T) {
  const unreadable: string[] = [];
  const text = (member: string, v: string | Unreadable | undefined): string | undefined => {
    if (typeof v !== 'object') return v;
    unreadable.push(`${member} (${v.unreadable})`);
    return undefined;
  };
  return {
    ...pkg,
    version: text('version', pkg.version),
    runtimeHint: text('runtimeHint', pkg.runtimeHint),
    registryBaseUrl: text('registryBaseUrl', pkg.registryBaseUrl),
    unreadable,
  };
}

export const McpPackageSchema = z.object({
  registryType: shortText(32),
  registryBaseUrl: judgedText(512),
  identifier: shortText(512),
  version: judgedText(255),
  // A hash of the wrong length is not a hash: a long one is cut (never well-formed after the cut,
  // 64 hex digits being what mcp-bundles reads as a SHA-256), one of another type read as none —
  // either way the bundle gives no well-formed SHA-256 and mcp-bundles fails it, not the entry refused.
  fileSha256: z.unknown().transform((v): string | undefined => (typeof v === 'string' ? v.slice(0, 128) : undefined)).optional(),
  runtimeHint: judgedText(64),
  runtimeArguments: optional(z.array(ArgumentSchema).max(MAX_ITEMS)),
  packageArguments: optional(z.array(ArgumentSchema).max(MAX_ITEMS)),
  environmentVariables: keyValues,
  transport: TransportSchema,
}).transform(readable);
export type McpPackage = z.infer<typeof McpPackageSchema>;

export const McpRemoteSchema = z.object({
  type: shortText(32),
  url: shortText(2048),
  headers: keyValues,
});

export const McpServerDetailSchema = z.object({
  name: z.string().min(3).max(200),
  description: shownText(4096),
  title: shownText(256),
  version: z.string().min(1).max(255),
  websiteUrl: z.unknown().transform((v): string | undefined => (typeof v === 'string' && v.length <= 2048 ? v : undefined)).optional(),
  repository: RepositorySchema,
  packages: optional(z.array(McpPackageSchema).max(MAX_ITEMS)),
  remotes: optional(z.array(McpRemoteSchema).max(MAX_ITEMS)),
});
export type McpServerDetail = z.infer<typeof McpServerDetailSchema>;

/**
 * The registry's metadata of an entry. Every member is optional in the registry's openapi.yaml
 * (`ServerResponse._meta`); a status nerq does not know is kept as written (the entry's checks
 * say it is unknown), so one new word does not make the whole entry unreadable.
 */
export const McpOfficialMetaSchema = z.object({
  // A long word is cut, not refused: the status check names it as one nerq does not know.
  status: optional(z.string().transform((text) => text.slice(0, 64))),
  // A long message is cut, not refused: a deprecated entry must still read as deprecated.
  statusMessage: optional(z.string().transform((text) => text.slice(0, 4096))),
  publishedAt: optional(shortText(64)),
  updatedAt: optional(shortText(64)),
  isLatest: optional(z.boolean()),
});
export type McpOfficialMeta = z.infer<typeof McpOfficialMetaSchema>;

/** An answer of any schema version the registry has published, read in the current spelling (legacy.ts). */
export const McpServerResponseSchema = z.preprocess(
  modernResponse,
  z.object({
    server: McpServerDetailSchema,
    _meta: optional(z.object({ [OFFICIAL_META]: optional(McpOfficialMetaSchema) })),
  }),
);

/**
 * A search page. Its entries are read one by one (read.ts, searchServers): one entry nerq cannot
 * read leaves that entry out, not the whole page.
 */
export const McpServerListSchema = z.object({
  servers: z.array(z.unknown()).max(1000),
  metadata: optional(z.object({ nextCursor: shortText(512).nullish(), count: optional(z.number().int()) })),
});
