/** An npm name without its scope: `@babel/core` → `core`; a name with no scope as it is. */
export function withoutScope(name: string): string {
  return name.replace(/^@[^/]+\//, '');
}
