/** The PyPI project an install command's word names (a README's install commands: sources/github/readme-installs.ts). */

const PEP508_NAME = /^([A-Za-z0-9](?:[A-Za-z0-9._-]{0,200}[A-Za-z0-9])?)(?:\[[A-Za-z0-9._,\s-]{0,200}\])?(?:\s*(?:[<>=!~]=?|===)\s*[^\s;]{1,100}(?:\s*,\s*(?:[<>=!~]=?|===)\s*[^\s;,]{1,100}){0,10})?(?:\s*;.*)?$/;

/** A PyPI project name in an install argument (`mcp`, `mcp[cli]>=1.2`); null for paths, URLs, `name @ url` and placeholders. */
export function pypiProjectName(word: string): string | null {
  if (word.length > 400 || word.includes('/') || word.includes('@') || word.includes('://')) return null;
  if (/\.(?:whl|tar\.gz|zip|txt|toml)$/i.test(word)) return null;
  return PEP508_NAME.exec(word.trim())?.[1] ?? null;
}
