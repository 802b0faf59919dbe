/** /openapi.json: the OpenAPI 3.1 description of `nerq serve`, generated from the zod schemas of schemas.ts and the report contract. */
import { z } from 'zod';
import { AuditReportSchema } from '../audit/report-schema.js';
import { ReportSchema } from '../report/schema.js';
import { VERSION } from '../version.js';
import {
  AuditRequestSchema,
  BatchQuerySchema,
  BatchRequestSchema,
  BatchResponseSchema,
  ErrorSchema,
  HealthSchema,
  HistoryQuerySchema,
  HistoryResponseSchema,
  PreflightQuerySchema,
  PreflightSchema,
  TargetQuerySchema,
} from './schemas.js';

const json = (schema: z.ZodType) => z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'output', unrepresentable: 'any' });

/** The query parameters of a strict object schema. */
function parameters(schema: z.ZodObject): object[] {
  const doc = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }) as { properties?: Record<string, object>; required?: string[] };
  return Object.entries(doc.properties ?? {}).map(([name, property]) => ({ name, in: 'query', required: (doc.required ?? []).includes(name), schema: property }));
}

const errorAnswers = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [String(s), { description: 'error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }]));
const ok = (ref: string) => ({ '200': { description: 'OK', content: { 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } } } });

let cached: Record<string, unknown> | null = null;

export function openApiDocument(): Record<string, unknown> {
  cached ??= {
    openapi: '3.1.0',
    info: { title: 'nerq serve', version: VERSION, description: 'Trust checks as an HTTP API (docs/serve.md).' },
    components: {
      schemas: {
        Preflight: json(PreflightSchema),
        BatchRequest: json(BatchRequestSchema),
        BatchResponse: json(BatchResponseSchema),
        Report: json(ReportSchema),
        AuditRequest: json(AuditRequestSchema),
        AuditReport: json(AuditReportSchema),
        History: json(HistoryResponseSchema),
        Health: json(HealthSchema),
        Error: json(ErrorSchema),
      },
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    },
    security: [{ bearer: [] }, {}],
    paths: {
      '/v1/preflight': { get: { operationId: 'preflight', parameters: parameters(PreflightQuerySchema), responses: { ...ok('Preflight'), ...errorAnswers(400, 401, 429, 504) } } },
      '/v1/preflight/batch': {
        post: {
          operationId: 'preflightBatch',
          parameters: parameters(BatchQuerySchema),
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/BatchRequest' } } } },
          responses: { ...ok('BatchResponse'), ...errorAnswers(400, 401, 413, 429, 504) },
        },
      },
      '/v1/report': { get: { operationId: 'report', parameters: parameters(TargetQuerySchema), responses: { ...ok('Report'), ...errorAnswers(400, 401, 429, 504) } } },
      '/v1/audit': {
        post: {
          operationId: 'audit',
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/AuditRequest' } } } },
          responses: { ...ok('AuditReport'), ...errorAnswers(400, 401, 413) },
        },
      },
      '/v1/history': { get: { operationId: 'history', parameters: parameters(HistoryQuerySchema), responses: { ...ok('History'), ...errorAnswers(400, 401) } } },
      '/healthz': { get: { operationId: 'health', security: [], responses: ok('Health') } },
    },
  };
  return cached;
}
