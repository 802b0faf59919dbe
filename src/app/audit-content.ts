/**
 * Use case: audit one lockfile, manifest or SBOM given as content (a front door's upload), with
 * the default policy. The content is written under its bare file name into a private temporary
 * directory (mode 0700) that holds nothing else, read by the same readers as `nerq audit`, and
 * the directory is removed before the call returns. Bad input is an `AuditInputError` before
 * any request.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
}

/** A bare file name nerq can read: no directory part, no hidden or odd characters. */
function checkedName(fileName: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(fileName)) {
    throw new AuditInputError('the file name must be a bare name such as package-lock.json (letters, digits, ".", "_", "-")');
  }
  return fileName;
}

export async function auditContent(runtime: Runtime, input: AuditContent, request: AuditRequest): Promise<AuditReport> {
  const name = checkedName(input.fileName);
  const bytes = Buffer.byteLength(input.content, 'utf8');
  const max = input.maxBytes ?? MAX_AUDIT_CONTENT_BYTES;
  if (bytes > max) throw new AuditInputError(`the content is too large (${bytes} bytes; at most ${max})`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nerq-audit-'));
  try {
    writeFileSync(path.join(dir, name), input.content, { mode: 0o600, flag: 'wx' });
    // The policy is the default one: an empty policy file in the directory, so no file above it is read.
    const policyFile = path.join(dir, `.nerq-policy-${process.pid}.json`);
    writeFileSync(policyFile, '{}\n', { mode: 0o600, flag: 'wx' });
    const plan = await prepareAudit({ dir, dirLabel: 'upload', files: [name], policyFile });
    const report = await auditProject(runtime, plan, request);
    // The empty policy file stands for the defaults: the report says so (null), as `nerq audit` does without one.
    return { ...report, policySource: null };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
