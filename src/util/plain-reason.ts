/**
 * A source's failure without the internal request names it starts with ("OSV querybatch: ",
 * "package metadata: ", "GitHub GraphQL: "…; "packument: " in evidence saved by an older nerq):
 * the part a user can act on. The evidence keeps the reason as the source gave it.
 */
export function plainReason(reason: string): string {
  return reason
    .split('; ')
    .map((part) => part.replace(/^(?:OSV(?: querybatch)?|package metadata|packument|tarball|project JSON|Simple API|GitHub(?: GraphQL| repository)?|downloads (?:last-week|last-year)|attestations|provenance|dependencies):\s+/, ''))
    .filter((part, index, all) => all.indexOf(part) === index)
    .join('; ');
}
