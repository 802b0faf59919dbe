/** fast-check generators shared by the target tests. */
import fc from 'fast-check';
import validateNpmName from 'validate-npm-package-name';

/** npm names valid for existing packages: optional scope, URL-safe body, capitals allowed. */
const nameBody = fc
  .tuple(
    fc.constantFrom(...'abcxyzABCXYZ0189'),
    fc.string({ unit: fc.constantFrom(...'abcxyzABCXYZ0189-._~'), maxLength: 40 }),
  )
  .map(([first, rest]) => first + rest);
export const npmName = fc
  .tuple(fc.option(nameBody, { nil: undefined }), nameBody)
  .map(([scope, body]) => (scope === undefined ? body : `@${scope}/${body}`))
  .filter((name) => validateNpmName(name).validForOldPackages);

export const semverVersion = fc
  .tuple(
    fc.nat({ max: 999 }),
    fc.nat({ max: 999 }),
    fc.nat({ max: 99999 }),
    fc.option(fc.constantFrom('alpha', 'beta.1', 'rc.2', '0.3.7', 'x-y-z'), { nil: undefined }),
  )
  .map(([major, minor, patch, pre]) => `${major}.${minor}.${patch}${pre === undefined ? '' : `-${pre}`}`);

