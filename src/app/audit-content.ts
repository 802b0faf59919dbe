/**
 * Use case: audit one lockfile, manifest or SBOM given as content (a front door's upload), with
 * the default policy or one given with it (validated by the same schema as `.nerqrc.json`,
 * size-capped; it names no file, so nothing else is read). The content is written under its bare file name into a private temporary
 * directory (mode 0700) that holds nothing else, read by the same readers as `nerq audit`, and
 * the directory is removed before the call returns. Bad input is an `AuditInputError` before
 * any request.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parsePolicy, PolicyError } from '../audit/policy-load.js';
import type { AuditReport } from '../audit/types.js';
import { auditProject, AuditInputError, prepareAudit, type AuditRequest } from './audit.js';
import type { Runtime } from './runtime.js';

/** The largest content accepted by default (bytes of UTF-8). */
export const MAX_AUDIT_CONTENT_BYTES = 5 * 1024 * 1024;

export interface AuditContent {
  /** The file's name (`package-lock.json`, `requirements.txt`, `bom.cdx.json`…): it picks the reader. */
  fileName: string;
  content: string;
  maxBytes?: number;
  /** A policy as `.nerqrc.json` holds it (parsed JSON); absent: the default policy. */
  policy?: unknown;
}

/** The largest policy accepted with the content (bytes of its JSON). */
export const MAX_POLICY_JSON_BYTES = 64 * 1024;

/** What the audit report names as the policy's source when the request gave one. */
export const REQUEST_POLICY_SOURCE = 'request';

/** The request's policy as the text of a policy file, validated; AuditInputError otherwise. */
function policyText(policy: unknown): string {
  const text = JSON.stringify(policy) ?? '';
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_POLICY_JSON_BYTES) throw new AuditInputError(`the policy is too large (${bytes} bytes; at most ${MAX_POLICY_JSON_BYTES})`);
  try {
    parsePolicy(policy, 'policy');
  } catch (error) {
    if (error instanceof PolicyError) throw new AuditInputError(error.message);
    throw error;
  }
  return `${text}\n`;
}

/** A bare file name nerq can read: no directory part, no hidden or odd characters. */
function checkedName(fileName: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(fileName)) {
    throw new AuditInputError('the file name must be a bare name such as package-lock.json (letters, digits, ".", "_", "-")');
  }
  return fileName;
}

/**
 * The checks made before anything is read or written — the file name, the content's size, the
 * policy — as an `AuditInputError`; a front door runs them before it waits for its turn to audit.
 */
export function checkAuditContent(input: AuditContent): { name: string; policy: string } {
  const name = checkedName(input.fileName);
  const bytes = Buffer.byteLength(input.content, 'utf8');
  const max = input.maxBytes ?? MAX_AUDIT_CONTENT_BYTES;
  if (bytes > max) throw new AuditInputError(`the content is too large (${bytes} bytes; at most ${max})`);
  return { name, policy: input.policy === undefined ? '{}\n' : policyText(input.policy) };
}

export async function auditContent(runtime: Runtime, input: AuditContent, request: AuditRequest): Promise<AuditReport> {
  const { name, policy } = checkAuditContent(input);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nerq-audit-'));
  try {
    writeFileSync(path.join(dir, name), input.content, { mode: 0o600, flag: 'wx' });
    // The request's policy, or an empty one for the defaults: a policy file in the directory, so no file above it is read.
    const policyFile = path.join(dir, `.nerq-policy-${process.pid}.json`);
    writeFileSync(policyFile, policy, { mode: 0o600, flag: 'wx' });
    const plan = await prepareAudit({ dir, dirLabel: 'upload', files: [name], policyFile });
    const report = await auditProject(runtime, plan, request);
    // The empty policy file stands for the defaults: the report says so (null), as `nerq audit` does without one.
    return { ...report, policySource: input.policy === undefined ? null : REQUEST_POLICY_SOURCE };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
