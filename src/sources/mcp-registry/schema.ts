/**
 * zod schemas of the MCP Registry read API v0.1 answers nerq reads (the registry's openapi.yaml:
 * `ServerResponse`, `ServerList`, `ServerDetail`, `Package`, `RemoteTransport`). Lenient where
 * the registry is (optional members, unknown keys ignored), strict where nerq relies on a member
 * (the server's name and version, a package's registry type and identifier, a remote's type and
 * URL). Lists are capped so a hostile answer cannot make nerq hold or print without bound.
 */
import { z } from 'zod';

/** The registry's own metadata key in `_meta`. */
export const OFFICIAL_META = 'io.modelcontextprotocol.registry/official';

const MAX_ITEMS = 64;
const shortText = (max: number) => z.string().max(max);

const ArgumentSchema = z.object({
  type: z.string().max(32).optional(),
  name: shortText(256).optional(),
  value: shortText(2048).optional(),
  default: shortText(2048).optional(),
  valueHint: shortText(256).optional(),
  isSecret: z.boolean().optional(),
});
export type McpArgument = z.infer<typeof ArgumentSchema>;

const KeyValueSchema = z.object({
  name: shortText(256),
  description: shortText(4096).optional(),
  isRequired: z.boolean().optional(),
  isSecret: z.boolean().optional(),
});

export const McpPackageSchema = z.object({
  registryType: shortText(32),
  registryBaseUrl: shortText(512).optional(),
  identifier: shortText(512),
  version: shortText(255).optional(),
  fileSha256: shortText(128).optional(),
  runtimeHint: shortText(64).optional(),
  transport: z.object({ type: shortText(32), url: shortText(2048).optional() }).partial().optional(),
  runtimeArguments: z.array(ArgumentSchema).max(MAX_ITEMS).optional(),
  packageArguments: z.array(ArgumentSchema).max(MAX_ITEMS).optional(),
  environmentVariables: z.array(KeyValueSchema).max(MAX_ITEMS).optional(),
});
export type McpPackage = z.infer<typeof McpPackageSchema>;

export const McpRemoteSchema = z.object({
  type: shortText(32),
  url: shortText(2048),
  headers: z.array(KeyValueSchema).max(MAX_ITEMS).optional(),
});

export const McpServerDetailSchema = z.object({
  name: z.string().min(3).max(200),
  description: shortText(4096).optional(),
  title: shortText(256).optional(),
  version: z.string().min(1).max(255),
  websiteUrl: shortText(2048).optional(),
  repository: z
    .object({ url: shortText(2048).optional(), source: shortText(64).optional(), subfolder: shortText(512).optional() })
    .optional(),
  packages: z.array(McpPackageSchema).max(MAX_ITEMS).optional(),
  remotes: z.array(McpRemoteSchema).max(MAX_ITEMS).optional(),
});
export type McpServerDetail = z.infer<typeof McpServerDetailSchema>;

export const McpOfficialMetaSchema = z.object({
  status: z.enum(['active', 'deprecated', 'deleted']),
  statusMessage: shortText(4096).optional(),
  publishedAt: shortText(64).optional(),
  updatedAt: shortText(64).optional(),
  isLatest: z.boolean().optional(),
});
export type McpOfficialMeta = z.infer<typeof McpOfficialMetaSchema>;

export const McpServerResponseSchema = z.object({
  server: McpServerDetailSchema,
  _meta: z.object({ [OFFICIAL_META]: McpOfficialMetaSchema.optional() }).optional(),
});

export const McpServerListSchema = z.object({
  servers: z.array(McpServerResponseSchema).max(1000),
  metadata: z.object({ nextCursor: shortText(512).nullish(), count: z.number().int().optional() }).optional(),
});
