/**
 * Which way a `run:` permission check goes (src/sources/github/permission-exit.ts): a script that
 * asks `gh api` for the actor's permission and exits non-zero is a gate only when the exit is
 * reached for every level below write. Gates that hold, then inverted, broken and unread shapes
 * (no gate: the findings are counted).
 */
import { describe, expect, it } from 'vitest';
import { permissionExit } from '../../src/sources/github/permission-exit.js';

const ASK = 'perm=$(gh api "repos/${{ github.repository }}/collaborators/${{ github.actor }}/permission" --jq .permission)\n';
const API = 'gh api "repos/${{ github.repository }}/collaborators/${{ github.actor }}/permission"';

describe('permissionExit: gates that hold (the exit reached for read, triage, none)', () => {
  it.each([
    ['if != admin && != write; then exit 1', `${ASK}if [ "$perm" != "admin" ] && [ "$perm" != "write" ]; then exit 1; fi\n`],
    ['[[ != && != ]] over lines, exit after an echo', `${ASK}if [[ "$perm" != admin && "$perm" != maintain && "$perm" != write ]]; then\n  echo "not allowed"\n  exit 1\nfi\n`],
    ['if == admin || == write; then …; else exit 1', `${ASK}if [ "$perm" = admin ] || [ "$perm" = write ]; then\n  echo ok\nelse\n  exit 1\nfi\n`],
    ['[[ == || == ]] || exit 1', `${ASK}[[ "$perm" == "admin" || "$perm" == "write" ]] || exit 1\n`],
    ['[ = admin ] || { echo; exit 1; }', `${ASK}[ "$perm" = "admin" ] || { echo "admins only"; exit 1; }\n`],
    ['!= admin && exit 1', `${ASK}[ "\${perm}" != admin ] && exit 1\n`],
    ['=~ ^(admin|write)$ || exit 1', `${ASK}[[ $perm =~ ^(admin|write)$ ]] || exit 1\n`],
    ["echo | grep -qE 'admin|write' || exit 1", `${ASK}echo "$perm" | grep -qE '^(admin|write)$' || exit 1\n`],
    ['grep -q <<< || exit 2', `${ASK}grep -qE 'admin|maintain|write' <<< "$perm" || exit 2\n`],
    ['if ! echo | grep -q; then exit 1', `${ASK}if ! echo "$perm" | grep -qE "admin|write"; then\n  exit 1\nfi\n`],
    ['gh api --jq .permission | grep -q || exit 1', `${API} --jq '.permission' | grep -qE 'admin|write' || exit 1\n`],
    ["gh api | jq -e '.permission == \"admin\" or …' || exit 1", `${API} | jq -e '.permission == "admin" or .permission == "write"' > /dev/null || exit 1\n`],
    [
      'a common agent-workflow shape: the call continued over two lines, `|| echo none` inside $( ), a reaction posted before the exit',
      'PERM=$(gh api "repos/${{ github.repository }}/collaborators/${{ github.actor }}/permission" \\\n  --jq \'.permission\' 2>/dev/null || echo "none")\nif [[ "$PERM" != "admin" && "$PERM" != "maintain" && "$PERM" != "write" ]]; then\n  gh api "repos/${{ github.repository }}/issues/${{ github.event.issue.number }}/reactions" -f content=-1 2>/dev/null || true\n  echo "::error::Unauthorized: ${{ github.actor }} ($PERM)"\n  exit 1\nfi\n',
    ],
    ['an earlier unrelated exit 1 under its own if', `if [ -z "$GH_TOKEN" ]; then exit 1; fi\n${ASK}if [ "$perm" != "admin" ]; then exit 1; fi\n`],
  ])('%s', (_name, run) => {
    expect(permissionExit(run)).toContain('below write');
  });
});

describe('permissionExit: inverted, broken or unread shapes are no gate', () => {
  it.each([
    ['inverted: exit when admin', `${ASK}if [ "$perm" == "admin" ]; then exit 1; fi\n`],
    ['inverted: exit in the else of a not-admin test', `${ASK}if [ "$perm" != admin ]; then echo go; else exit 1; fi\n`],
    ['a list of weak levels (read only: triage and none pass)', `${ASK}if [ "$perm" = "read" ]; then exit 1; fi\n`],
    ['!= read || exit 1 (exits only for read)', `${ASK}[ "$perm" != "read" ] || exit 1\n`],
    ['|| of != (always true)', `${ASK}if [ "$perm" != admin ] || [ "$perm" != write ]; then echo go; else exit 1; fi\n`],
    ['&& of == (never true)', `${ASK}[ "$perm" = admin ] && [ "$perm" = write ] || exit 1\n`],
    ['another variable compared beside it', `${ASK}if [ "$perm" != admin ] && [ "$GITHUB_ACTOR" != "renovate[bot]" ]; then exit 1; fi\n`],
    ['a variable not read from the permission', `${ASK}role=read\nif [ "$role" != admin ]; then exit 1; fi\n`],
    ['grep -v (inverted)', `${ASK}echo "$perm" | grep -qv 'admin' || exit 1\n`],
    ['grep a weak level', `${ASK}echo "$perm" | grep -q 'read' && exit 1\n`],
    ['grep on the whole JSON (it names admin in every answer)', `${API} | grep -q admin || exit 1\n`],
    ["gh api --jq '.permission == \"admin\"' || exit 1 (prints false and succeeds)", `${API} --jq '.permission == "admin"' || exit 1\n`],
    ['jq without -e', `${API} | jq '.permission == "admin"' || exit 1\n`],
    ['an exit 0 first (for a bot)', `${ASK}if [ "$GITHUB_ACTOR" = "dependabot[bot]" ]; then exit 0; fi\nif [ "$perm" != admin ]; then exit 1; fi\n`],
    ['the exit under a second if', `${ASK}if [ "$GITHUB_EVENT_NAME" = issue_comment ]; then\n  if [ "$perm" != admin ]; then\n    exit 1\n  fi\nfi\n`],
    ['an elif', `${ASK}if [ "$perm" = admin ]; then echo ok; elif [ "$perm" = write ]; then echo ok; else exit 1; fi\n`],
    ['a case', `${ASK}case "$perm" in\n  admin|write) echo ok ;;\n  *) exit 1 ;;\nesac\n`],
    ['a -a test', `${ASK}if [ "$perm" != admin -a "$perm" != write ]; then exit 1; fi\n`],
    ['no exit at all', `${ASK}if [ "$perm" != admin ]; then echo "not an admin"; fi\n`],
  ])('%s', (_name, run) => {
    expect(permissionExit(run)).toBeNull();
  });
});
