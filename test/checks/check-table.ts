/**
 * Table-driven check tests: runs a check over built evidence the way the engine does (a
 * needed source unavailable → unknown; optional sources passed when ok), asserts score,
 * messageId, key data and caps, and that every message the check declares is exercised by
 * the table while every message it returns is declared and fully filled in.
 */
import { describe, expect, it } from 'vitest';
import type { AnyCheck, CapRequest, CheckContext, CheckOutcome } from '../../src/checks/define.js';
import { formatMessage } from '../../src/checks/define.js';
import type { NeedId } from '../../src/checks/define.js';
import { isViewId, viewOf } from '../../src/checks/views/index.js';
import { sourceOf, type Evidence } from '../../src/evidence/schema.js';
import { NOW } from '../support/evidence-builder.js';

export interface CheckCase {
  name: string;
  evidence: Evidence;
  now?: Date;
  score: number | null;
  messageId: string;
  /** Subset of the outcome's data (toMatchObject). */
  data?: Record<string, unknown>;
  /** Exact caps; omitted means "no caps". A cap given without `args` leaves its args unchecked. */
  caps?: CapRequest[];
  /** Substrings the formatted message must contain. */
  message?: string[];
  /** Whether the check leaves itself out (`notApplicable`); unchecked when omitted. */
  notApplicable?: boolean;
}

/**
 * Any single check, whatever its sources and messages. (`AnyCheck` does not accept a typed
 * check directly: `evaluate` is a function-typed property, so its parameter is contravariant.)
 */
export type TestedCheck = Pick<AnyCheck, 'id' | 'needs' | 'optional' | 'messages'> & {
  evaluate: (facts: never, ctx: CheckContext) => CheckOutcome;
};

export type Ran = { kind: 'unknown-source'; source: NeedId } | { kind: 'outcome'; outcome: CheckOutcome };

/** A source of the evidence or a derived view (views/index.ts), by id, as the engine looks it up. */
export function lookup(evidence: Evidence, id: NeedId) {
  return isViewId(id) ? viewOf(evidence, id) : sourceOf(evidence.sources, id);
}

/** Run one check like the engine: needs gate the call, optional facts are passed when ok. */
export function runCheck(check: TestedCheck, evidence: Evidence, now: Date = NOW): Ran {
  const facts: Record<string, unknown> = {};
  for (const need of check.needs as readonly NeedId[]) {
    const source = lookup(evidence, need);
    if (source.status !== 'ok') return { kind: 'unknown-source', source: need };
    facts[need] = source.facts;
  }
  for (const extra of (check.optional ?? []) as readonly NeedId[]) {
    const source = lookup(evidence, extra);
    if (source.status === 'ok') facts[extra] = source.facts;
  }
  return { kind: 'outcome', outcome: check.evaluate(facts as never, { now }) };
}

/** Evaluate and insist that the check answered (its needs were available). */
export function outcomeOf(check: TestedCheck, evidence: Evidence, now: Date = NOW): CheckOutcome {
  const ran = runCheck(check, evidence, now);
  if (ran.kind !== 'outcome') throw new Error(`${check.id}: needed source ${ran.source} unavailable`);
  return ran.outcome;
}

export function checkTable(check: TestedCheck, cases: readonly CheckCase[]): void {
  describe(`${check.id} table`, () => {
    const seen = new Set<string>();
    it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
      const outcome = outcomeOf(check, c.evidence, c.now ?? NOW);
      seen.add(outcome.messageId);
      expect(outcome.score).toBe(c.score);
      expect(outcome.messageId).toBe(c.messageId);
      if (outcome.score !== null) {
        expect(outcome.score).toBeGreaterThanOrEqual(0);
        expect(outcome.score).toBeLessThanOrEqual(100);
      }
      if (c.data !== undefined) expect(outcome.data).toMatchObject(c.data);
      if (c.notApplicable !== undefined) expect(outcome.notApplicable === true).toBe(c.notApplicable);
      const expectedCaps = c.caps ?? [];
      const caps = (outcome.caps ?? []).map((cap, i) => {
        // A cap's args are plain, serialisable values (the report's cap.args).
        expect(JSON.parse(JSON.stringify(cap.args ?? {}))).toEqual(cap.args ?? {});
        if (expectedCaps[i]?.args !== undefined) return cap;
        const { args: _args, ...rest } = cap;
        return rest;
      });
      expect(caps).toEqual(expectedCaps);
      const template = (check.messages as Record<string, string | undefined>)[outcome.messageId];
      expect(template, `message ${outcome.messageId} is declared`).toBeTypeOf('string');
      const message = formatMessage(template ?? '', outcome.data);
      expect(message, 'every placeholder is filled').not.toMatch(/\{\w+\}/);
      expect(message).not.toMatch(/\bundefined\b/);
      for (const part of c.message ?? []) expect(message).toContain(part);
      // Evidence is plain, serialisable data.
      expect(JSON.parse(JSON.stringify(outcome.data ?? {}))).toEqual(outcome.data ?? {});
    });
    it('exercises every declared message', () => {
      expect([...seen].sort()).toEqual(Object.keys(check.messages).sort());
    });
  });
}
