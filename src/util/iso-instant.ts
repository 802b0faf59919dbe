/**
 * An instant as nerq writes it and reads it back: a saved evidence file's `capturedAt` and
 * `NERQ_NOW` (README, "`nerq score <evidence.json>`"). ISO 8601: a calendar date `YYYY-MM-DD`
 * (midnight UTC), or a date and time `YYYY-MM-DDTHH:MM[:SS[.fraction]]` with its zone (`Z` or
 * `±HH:MM`). JavaScript's own date parser is more lenient, and each leniency gives another
 * instant than the text says: a day the month does not have rolls over (February 30th is read
 * as March 2nd), text after the date is skipped (`2026-01-01 (any words)`), and a time without
 * a zone is read in the machine's local time, so the same evidence would be re-scored at
 * different instants on different machines. Each of these is no instant here: null.
 */

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2})))?$/;

function daysIn(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** The instant `value` names, or null when it is not one of the forms above or names no real time. */
export function isoInstant(value: string): Date | null {
  const match = INSTANT.exec(value);
  if (match === null) return null;
  const [year, month, day, hour = 0, minute = 0, second = 0, zoneHours = 0, zoneMinutes = 0] = match
    .slice(1)
    .map((part) => (part === undefined ? undefined : Number(part))) as number[];
  if (month! < 1 || month! > 12 || day! < 1 || day! > daysIn(year!, month!)) return null;
  if (hour > 23 || minute > 59 || second > 59 || zoneHours > 23 || zoneMinutes > 59) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time);
}
