/**
 * security-placeholder: npm holds the name with a security-holding package — what it publishes
 * under a name it took back from the package that held it (docs/checks.md,
 * `security-placeholder`). Recognised by npm's own marks on the version (lib/holding-package.ts):
 * its description, its `-security` version, its README's title, or its link to npm's
 * security-holder repository with nothing else in the tarball.
 *
 * npm's text says the name "was formerly occupied by another package" and is held "to avoid
 * malicious use": it does not say the package removed was malware (npm also holds Node built-in
 * names such as child_process), so neither does the message. Whatever was removed, nothing here
 * is code to install: the cap and the "do not use" verdict stand (docs/scoring.md §5).
 *
 * A version that is not the placeholder, of a name npm has held with one (a `0.0.N-security`
 * version among its versions), may be the code npm took the name back from: held at CAUTION with
 * the placeholder's version (docs/scoring.md §6a) — unless publish times show it published after
 * the placeholder (npm gave the name to a new owner), or, without such times, a project of
 * several releases grew on the name (lib/holding-package.ts `heldBefore`).
 */
import type { EvidenceValue } from './define.js';
import { defineCheck, type CheckOutcome } from './define.js';
import { ADOPTED_MIN_RELEASES, heldBefore, holdingMarks } from './lib/holding-package.js';
import { withheldTimes } from './lib/publish-times.js';

export default defineCheck({
  id: 'security-placeholder',
  dimension: 'security',
  weight: 3,
  needs: ['registry'],
  optional: ['tarball'],
  title: 'Not a security placeholder',
  description:
    "Detects npm's security-holding package, which npm publishes under a name it took back from the package that held it, by npm's own marks on the version: the description \"security holding package\", a version like `0.0.1-security`, a README titled \"Security holding package\" (the tarball's, else the one the registry shows), or a repository link to GitHub's npm/security-holder with nothing in the tarball but its package.json and README. " +
    'A README that mentions the words or the repository further down, or a link to another repository, is no mark. ' +
    'A holding package scores 0, caps the overall score at 9.9 and sets the verdict to "do not use" — npm removed what the name held, and nothing here is code to install; ' +
    `another version of a name npm has held (a \`0.0.N-security\` version among its versions) scores 50 and holds the verdict at CAUTION — it may be the code npm took the name back from — unless the registry's publish times show it published after the placeholder (the name given to a new owner) or, those times unknown or a mirror's own, the name has ${ADOPTED_MIN_RELEASES} releases or more besides placeholders; anything else scores 100.`,
  messages: {
    placeholder: 'npm holds this name with a security-holding package ({marks}): the package it held was removed, and nothing here is code to install',
    genuine: "Published code, not a security-holding package npm put in place of one it removed",
    'held-before': 'Published code, but npm has held this name with a security-holding package ({placeholder}) and this version may be what it took the name back from',
  },
  evaluate: ({ registry, tarball }): CheckOutcome<'placeholder' | 'genuine' | 'held-before'> => {
    const marks = holdingMarks(registry, tarball);
    if (marks.length === 0) {
      const placeholder = heldBefore(registry, withheldTimes(registry.trimmed, registry.versions) === null);
      if (placeholder === null) return { score: 100, messageId: 'genuine', data: { securityHolding: false } };
      return {
        score: 50,
        messageId: 'held-before',
        data: { securityHolding: false, placeholder },
        holdVerdict: `npm has held this name with a security-holding package (${placeholder}): it took the name back from a package it removed, and nothing the registry shows tells this version apart from that package (it was not published after the placeholder, nor has a project of several releases grown on the name); a review of who published it would lift this`,
      };
    }
    const data: Record<string, EvidenceValue> = { securityHolding: true, version: registry.version, marks };
    return {
      score: 0,
      messageId: 'placeholder',
      data,
      caps: [
        {
          id: 'security-placeholder',
          limit: 9.9,
          doNotUse: true,
          reason: 'npm holds this name with a security-holding package: the package it held was removed, and nothing here is code to install',
          args: { version: registry.version },
        },
      ],
    };
  },
});
