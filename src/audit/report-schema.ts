/**
 * The audit's JSON contract (`nerq audit --json`), in zod: the AuditReport of types.ts, each
 * entry's report being the `nerq check` Report. `renderAuditJson` projects through it (render/
 * contract-order.ts), so key order follows this schema and anything outside the contract is dropped;
 * the tests validate the output against it. A test keeps it
 * and the TypeScript interfaces in step.
 */
import { z } from 'zod';
import { ReportSchema } from '../report/schema.js';

const EcosystemSchema = z.enum(['npm', 'pypi']);

export const AuditSubjectSchema = z.object({
  ecosystem: EcosystemSchema,
  name: z.string(),
  version: z.string().nullable(),
  spec: z.string().nullable(),
  direct: z.boolean(),
  dev: z.boolean(),
  declaredIn: z.array(
    z.object({ file: z.string(), line: z.number().int().min(1).nullable(), workspace: z.string().nullable() }),
  ),
  resolved: z.string().nullable(),
});

export const PolicyFailureSchema = z.object({ rule: z.string(), message: z.string() });

export const PolicyOutcomeSchema = z.object({
  status: z.enum(['pass', 'fail', 'ignored', 'error']),
  failures: z.array(PolicyFailureSchema),
  ignoredBy: z.object({ package: z.string(), reason: z.string(), expires: z.string().nullable() }).nullable(),
});

export const AuditEntrySchema = z.object({
  subject: AuditSubjectSchema,
  report: ReportSchema,
  policy: PolicyOutcomeSchema,
});

const count = z.number().int().min(0);

/**
 * The audit contract's version: 1.1.0 added the coded reasons of each entry's report (report
 * 1.4.0), 1.2.0 its `provisional` flag (report 1.5.0).
 */
export const AUDIT_SCHEMA_VERSION = '1.2.0';

export const AuditReportSchema = z.object({
  auditSchemaVersion: z.literal(AUDIT_SCHEMA_VERSION),
  tool: z.object({ name: z.literal('nerq'), version: z.string() }),
  evaluatedAt: z.string(),
  inputs: z.array(z.object({ file: z.string(), format: z.string() })),
  policySource: z.string().nullable(),
  summary: z.object({ total: count, passed: count, failed: count, ignored: count, errors: count }),
  entries: z.array(AuditEntrySchema),
  warnings: z.array(z.string()),
});

export type AuditReportJson = z.infer<typeof AuditReportSchema>;
