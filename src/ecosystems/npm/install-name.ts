/** The npm package an install command's word names (a README's install commands: sources/github/readme-installs.ts). */
import npa from 'npm-package-arg';

/** An npm registry package name in an install argument (`x`, `@s/x@^1`, `x@latest`); null for paths, URLs, git and aliases' targets. */
export function npmPackageName(word: string): string | null {
  if (word.length > 214 + 64 || /[<>{}$]/.test(word)) return null;
  try {
    const spec = npa(word);
    return (spec.type === 'tag' || spec.type === 'version' || spec.type === 'range') && spec.name !== null && spec.name !== undefined ? spec.name : null;
  } catch {
    return null;
  }
}
