/**
 * PEP 503 name normalisation, the one copy nerq uses: lower case, and every run of `-`, `_`
 * and `.` becomes one `-` (`Foo_Bar` and `foo.bar` are the project `foo-bar`).
 * https://peps.python.org/pep-0503/#normalized-names
 */
export function pep503(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}
