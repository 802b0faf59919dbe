/**
 * GitHub code scanning rejects a whole SARIF upload when one result has no location ("expected
 * at least one location"): the results of a log that lack a physical location with a URI, as
 * `ruleId` (none in a log code scanning accepts).
 */
export function unlocatedResults(sarif: string): string[] {
  const log = JSON.parse(sarif) as { runs: { results: { ruleId?: string; locations?: { physicalLocation?: { artifactLocation?: { uri?: unknown } } }[] }[] }[] };
  return log.runs
    .flatMap((run) => run.results)
    .filter((r) => !(r.locations ?? []).some((l) => typeof l.physicalLocation?.artifactLocation?.uri === 'string' && l.physicalLocation.artifactLocation.uri !== ''))
    .map((r) => r.ruleId ?? '(no rule)');
}
