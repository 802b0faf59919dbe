/** A failure's reason as one short line: an Error's message or the value, whitespace folded, at most 300 characters. */
export function oneLine(value: unknown): string {
  const text = value instanceof Error ? value.message : String(value);
  return text.replace(/\s+/g, ' ').trim().slice(0, 300);
}
