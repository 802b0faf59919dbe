import { describe, expect, it } from 'vitest';
import { parseTarget } from '../../src/target/parse.js';
import { isMcpServerName } from '../../src/ecosystems/mcp/target-syntax.js';
import { quoteForMessage } from '../../src/target/syntax.js';
import { TargetError } from '../../src/target/types.js';
import type { Target } from '../../src/target/types.js';

type Expected = Omit<Target, 'input'>;

const accepted: [input: string, expected: Expected][] = [
  // npm
  ['express', { ecosystem: 'npm', name: 'express' }],
  ['express@5', { ecosystem: 'npm', name: 'express', spec: '5' }],
  ['express@^4.18.0', { ecosystem: 'npm', name: 'express', spec: '^4.18.0' }],
  ['express@>=4.0.0 <5', { ecosystem: 'npm', name: 'express', spec: '>=4.0.0 <5' }],
  ['express@latest', { ecosystem: 'npm', name: 'express', spec: 'latest' }],
  ['express@next', { ecosystem: 'npm', name: 'express', spec: 'next' }],
  ['express@5.1.0', { ecosystem: 'npm', name: 'express', spec: '5.1.0' }],
  ['@scope/pkg', { ecosystem: 'npm', name: '@scope/pkg' }],
  ['@scope/pkg@1.2.3', { ecosystem: 'npm', name: '@scope/pkg', spec: '1.2.3' }],
  ['@types/node@^20', { ecosystem: 'npm', name: '@types/node', spec: '^20' }],
  ['npm:express', { ecosystem: 'npm', name: 'express' }],
  ['NPM:express', { ecosystem: 'npm', name: 'express' }],
  ['npm:@scope/pkg@1.2.3', { ecosystem: 'npm', name: '@scope/pkg', spec: '1.2.3' }],
  ['JSONStream', { ecosystem: 'npm', name: 'JSONStream' }],
  ['JSONStream@1.3.5', { ecosystem: 'npm', name: 'JSONStream', spec: '1.3.5' }],
  ['lodash.merge', { ecosystem: 'npm', name: 'lodash.merge' }],
  ['http', { ecosystem: 'npm', name: 'http' }],
  ['foo.tgz@1.0.0', { ecosystem: 'npm', name: 'foo.tgz', spec: '1.0.0' }],
  ['  express  ', { ecosystem: 'npm', name: 'express' }],
  ['a'.repeat(214), { ecosystem: 'npm', name: 'a'.repeat(214) }],
  // PyPI
  ['pypi:requests', { ecosystem: 'pypi', name: 'requests' }],
  ['pypi:Requests', { ecosystem: 'pypi', name: 'requests' }],
  ['PyPI:requests', { ecosystem: 'pypi', name: 'requests' }],
  ['pypi:requests==2.31.0', { ecosystem: 'pypi', name: 'requests', spec: '==2.31.0' }],
  ['pypi:requests>=2,<3', { ecosystem: 'pypi', name: 'requests', spec: '>=2,<3' }],
  ['pypi:requests ~= 2.31', { ecosystem: 'pypi', name: 'requests', spec: '~= 2.31' }],
  ['pypi:django==4.2.*', { ecosystem: 'pypi', name: 'django', spec: '==4.2.*' }],
  ['pypi:Foo_Bar.baz', { ecosystem: 'pypi', name: 'foo-bar-baz' }],
  ['pypi:a__-.b', { ecosystem: 'pypi', name: 'a-b' }],
  ['pypi:x', { ecosystem: 'pypi', name: 'x' }],
  // GitHub
  ['github:owner/repo', { ecosystem: 'github', name: 'owner/repo' }],
  ['github:Owner-1/Repo.js', { ecosystem: 'github', name: 'Owner-1/Repo.js' }],
  ['github:owner/repo@v1.2.3', { ecosystem: 'github', name: 'owner/repo', spec: 'v1.2.3' }],
  ['github:owner/repo@release/2.x', { ecosystem: 'github', name: 'owner/repo', spec: 'release/2.x' }],
  ['github:owner/repo@0123456789abcdef0123456789abcdef01234567', { ecosystem: 'github', name: 'owner/repo', spec: '0123456789abcdef0123456789abcdef01234567' }],
  ['github:owner/repo@v1.2.0-rc.1', { ecosystem: 'github', name: 'owner/repo', spec: 'v1.2.0-rc.1' }],
  ['pkg:github/owner/repo@v1.2.0', { ecosystem: 'github', name: 'owner/repo', spec: 'v1.2.0' }],
  ['https://github.com/owner/repo', { ecosystem: 'github', name: 'owner/repo' }],
  ['https://github.com/owner/repo.git', { ecosystem: 'github', name: 'owner/repo' }],
  ['http://github.com/owner/repo/', { ecosystem: 'github', name: 'owner/repo' }],
  ['https://www.github.com/owner/repo', { ecosystem: 'github', name: 'owner/repo' }],
  ['https://GitHub.com/expressjs/express', { ecosystem: 'github', name: 'expressjs/express' }],
  ['github.com/owner/repo', { ecosystem: 'github', name: 'owner/repo' }],
  // Pasted without a scheme: the repository, whatever follows it (its default branch is read).
  ['www.github.com/owner/repo', { ecosystem: 'github', name: 'owner/repo' }],
  ['WWW.GitHub.com/Owner/Repo', { ecosystem: 'github', name: 'Owner/Repo' }],
  ['github.com/owner/repo.git', { ecosystem: 'github', name: 'owner/repo' }],
  ['github.com/owner/repo/', { ecosystem: 'github', name: 'owner/repo' }],
  ['github.com/owner/repo.git/', { ecosystem: 'github', name: 'owner/repo' }],
  // A folder's page names the folder (its ref is not taken: the default branch is read).
  ['github.com/owner/repo/tree/main/packages/server', { ecosystem: 'github', name: 'owner/repo', folder: 'packages/server' }],
  ['www.github.com/owner/repo/blob/main/README.md#install', { ecosystem: 'github', name: 'owner/repo' }],
  ['https://github.com/owner/repo/tree/main/x', { ecosystem: 'github', name: 'owner/repo', folder: 'x' }],
  ['https://github.com/owner/repo/tree/main', { ecosystem: 'github', name: 'owner/repo' }],
  ['https://github.com/owner/repo/tree/main/src/server/', { ecosystem: 'github', name: 'owner/repo', folder: 'src/server' }],
  // A folder in the shorthand, with or without a ref.
  ['github:owner/repo/src/everything', { ecosystem: 'github', name: 'owner/repo', folder: 'src/everything' }],
  ['github:owner/repo/packages/mcp@v1.2.0', { ecosystem: 'github', name: 'owner/repo', spec: 'v1.2.0', folder: 'packages/mcp' }],
  ['github:owner/repo/', { ecosystem: 'github', name: 'owner/repo' }],
  ['https://github.com/owner/repo?tab=readme#top', { ecosystem: 'github', name: 'owner/repo' }],
  ['github:a/b', { ecosystem: 'github', name: 'a/b' }],
  [`github:${'a'.repeat(39)}/${'r'.repeat(100)}`, { ecosystem: 'github', name: `${'a'.repeat(39)}/${'r'.repeat(100)}` }],
  // package URLs
  ['pkg:npm/express@5.1.0', { ecosystem: 'npm', name: 'express', spec: '5.1.0' }],
  ['pkg:npm/express', { ecosystem: 'npm', name: 'express' }],
  ['pkg:npm/%40scope/pkg@1.0.0', { ecosystem: 'npm', name: '@scope/pkg', spec: '1.0.0' }],
  ['pkg:npm/@scope/pkg@1.0.0', { ecosystem: 'npm', name: '@scope/pkg', spec: '1.0.0' }],
  ['pkg:npm/@scope/pkg', { ecosystem: 'npm', name: '@scope/pkg' }],
  ['pkg:npm/JSONStream@1.3.5', { ecosystem: 'npm', name: 'JSONStream', spec: '1.3.5' }],
  ['pkg:npm/express@5.1.0?arch=x64#lib', { ecosystem: 'npm', name: 'express', spec: '5.1.0' }],
  ['pkg:pypi/requests@2.31.0', { ecosystem: 'pypi', name: 'requests', spec: '==2.31.0' }],
  ['pkg:pypi/requests', { ecosystem: 'pypi', name: 'requests' }],
  ['pkg:pypi/Django_Rest', { ecosystem: 'pypi', name: 'django-rest' }],
  ['pkg:github/owner/repo', { ecosystem: 'github', name: 'owner/repo' }],
  ['pkg:github/owner/repo@v1.0.0', { ecosystem: 'github', name: 'owner/repo', spec: 'v1.0.0' }],
  ['PKG:NPM/express@5.1.0', { ecosystem: 'npm', name: 'express', spec: '5.1.0' }],
];

describe('parseTarget accepts every documented form', () => {
  it.each(accepted)('%j', (input, expected) => {
    const target = parseTarget(input);
    expect(target).toEqual({ input, ...expected });
    // spec is absent (not an empty string) when none was given
    if (expected.spec === undefined) expect(target.spec).toBeUndefined();
  });
});

const rejected: [input: string, reason: RegExp][] = [
  // empty / long
  ['', /empty/],
  ['   ', /empty/],
  ['a'.repeat(215), /too long \(215 characters; at most 214\)/],
  ['x'.repeat(300), /too long \(300/],
  [`@scope/${'a'.repeat(250)}`, /too long/],
  // control, bidi and zero-width characters
  ['\u0007', /control or invisible character \(U\+0007\)/],
  ['exp\u0000ress', /U\+0000/],
  ['express\n', /U\+000A/],
  ['\texpress', /U\+0009/],
  ['express\u007f', /U\+007F/],
  ['express\u009b', /U\+009B/],
  ['\u202eexpress', /U\+202E/],
  ['expr\u2066ess', /U\+2066/],
  ['exp\u200bress', /U\+200B/],
  ['exp\u200dress', /U\+200D/],
  ['\ufeffexpress', /U\+FEFF/],
  ['express\u2028', /U\+2028/],
  ['ex\ud800press', /U\+D800/],
  ['pypi:req\u200euests', /U\+200E/],
  ['pkg:npm/%07x', /U\+0007/],
  ['pkg:npm/ex%E2%80%AEpress', /U\+202E/],
  // path tricks
  ['../x', /path segment/],
  ['./x', /path segment/],
  ['x/../y', /path segment/],
  ['..', /path segment/],
  ['express@..', /path segment/],
  ['%2e%2e', /percent-encoding/],
  ['%2e%2e/x', /percent-encoding|not an npm package name/],
  ['ex%70ress', /percent-encoding/],
  ['@scope%2fpkg', /percent-encoding/],
  ['pkg:npm/%2e%2e', /path segment/],
  ['pkg:npm/%2e%2ex', /invalid npm package name/],
  ['pkg:npm/..%2fx', /path segment|not an npm package name/],
  ['a\\b', /backslash/],
  ['C:\\x', /backslash/],
  ['github:owner/..', /path segment/],
  ['https://github.com/owner/repo/../x', /path segment/],
  // other hosts and URL schemes
  ['https://evil.example/pkg', /unsupported host "evil.example"/],
  ['https://evil.example/x', /unsupported host/],
  ['http://github.com.evil.example/a/b', /unsupported host/],
  ['https://user:pw@github.com/a/b', /credentials or a port/],
  ['https://github.com:8443/a/b', /credentials or a port/],
  // A git URL naming a GitHub repository: the target to check instead (hosted-git-info reads it).
  ['git+https://github.com/a/b', /^"git\+https:\/\/github.com\/a\/b" is a git URL, not a target: for the repository, check github:a\/b$/],
  ['git+ssh://git@github.com/a/b.git', /is a git URL, not a target: for the repository, check github:a\/b$/],
  ['git://github.com/a/b', /is a git URL, not a target: for the repository, check github:a\/b$/],
  ['ssh://git@github.com/a/b.git', /is a git URL, not a target: for the repository, check github:a\/b$/],
  ['git+https://github.com/a/b.git#v1.2.0', /is a git URL, not a target: for the repository, check github:a\/b$/],
  ['github.com:a/b', /is a git URL, not a target: for the repository, check github:a\/b$/],
  // Credentials are not echoed.
  ['git+https://user:s3cret@github.com/a/b.git', /^"git\+https:\/\/github.com\/a\/b.git" is a git URL/],
  ['git+https://user:s3cret@gitlab.example/a/b.git', /^unsupported URL "git\+https:\/\/gitlab.example\/a\/b.git"/],
  ['git+https://gitlab.example/a/b', /unsupported URL/],
  ['file:x', /unsupported URL/],
  ['file:///etc/passwd', /unsupported URL/],
  ['ftp://example.org/x.tgz', /unsupported URL/],
  ['foo:bar', /unknown prefix "foo:"/],
  ['cargo:serde', /unknown prefix/],
  ['https://github.com/', /expected https:\/\/github.com\/owner\/repo/],
  ['https://github.com/owner', /expected https:\/\/github.com\/owner\/repo/],
  ['https://github.com/orgs/x', /GitHub page/],
  // npm
  ['express@', /missing version/],
  ['@scope', /invalid npm package name|invalid version/],
  ['.hidden', /cannot start with a period/],
  ['_private', /cannot start with an underscore/],
  ['-dash', /cannot start with a hyphen/],
  ['node_modules', /node_modules is not a valid package name/],
  ['has space', /URL-friendly/],
  ['ex:press', /unknown prefix/],
  ['owner/repo', /not an npm package name \(for a GitHub repository use github:owner\/repo\)/],
  ['chalk/chalk', /not an npm package name \(for a GitHub repository use github:chalk\/chalk\)/],
  ['a/b/c', /not an npm package name \(for a GitHub repository use github:owner\/repo\)/],
  ['express@github:a/b', /git sources are not supported/],
  ['express@git+https://github.com/a/b', /git sources are not supported/],
  ['express@https://evil.example/x.tgz', /tarball URLs are not supported/],
  ['express@npm:lodash@4', /aliases are not supported/],
  ['express@/etc/passwd', /local paths are not supported/],
  ['express@x.tgz', /local files are not supported/],
  ['express@a?b', /invalid version, range or dist-tag/],
  ['git@github.com:a/b.git', /^"git@github.com:a\/b.git" is a git URL, not a target: for the repository, check github:a\/b$/],
  ['git@gitlab.example:a/b.git', /git sources are not supported/],
  ['npm:', /missing npm package name/],
  ['pkg:npm/express@latest', /not an exact npm version/],
  ['pkg:npm/express@^5', /not an exact npm version/],
  // PyPI
  ['pypi:', /missing PyPI project name/],
  ['pypi:==1.0', /missing PyPI project name/],
  ['pypi:-bad', /missing PyPI project name|invalid PyPI project name/],
  ['pypi:bad-', /invalid PyPI project name/],
  ['pypi:requests@2.31.0', /use pypi:requests==version/],
  ['pypi:requests 2.31', /invalid version specifier/],
  ['pypi:requests[security]', /extras such as "\[security\]" are not a target: check pypi:requests,/],
  ['pypi:requests;python_version<"3.8"', /environment markers are not a target: check pypi:requests$/],
  ['pypi:requests==', /invalid version specifier/],
  ['pypi:requests>=2,', /invalid version specifier/],
  ['pypi:requests=>2', /invalid version specifier/],
  ['pypi:réquests', /invalid PyPI project name|invalid version specifier/],
  ['pkg:pypi/ns/requests', /no namespace/],
  // GitHub
  ['github:owner', /expected github:owner\/repo/],
  ['github:a/b/../c', /path segment/],
  ['github:a/b/c//d', /invalid folder/],
  ['https://github.com/a/b/tree/main/c/%2e%2e', /percent-encoding/],
  ['github:-owner/repo', /invalid GitHub owner/],
  ['github:owner-/repo', /invalid GitHub owner/],
  ['github:ow--ner/repo', /invalid GitHub owner/],
  ['github:ow_ner/repo', /invalid GitHub owner/],
  [`github:${'a'.repeat(40)}/repo`, /invalid GitHub owner/],
  [`github:owner/${'r'.repeat(101)}`, /invalid GitHub repository name/],
  ['github:owner/re po', /invalid GitHub repository name/],
  ['github:owner/.git', /invalid GitHub repository name/],
  ['github:owner/repo@', /invalid git ref/],
  ['github:owner/repo@-x', /invalid git ref/],
  ['github:owner/repo@a b', /invalid git ref/],
  // git's ref rules (git check-ref-format): refused before any request.
  ['github:owner/repo@v1..2', /invalid git ref/],
  ['github:owner/repo@release/.hidden', /invalid git ref/],
  ['github:owner/repo@topic.lock/x', /invalid git ref/],
  ['github:owner/repo@v1.', /invalid git ref/],
  ['github:owner/repo@a//b', /invalid git ref/],
  ['github:owner/repo@a/', /invalid git ref/],
  ['github:owner/repo@v1~1', /invalid git ref/],
  ['github:owner/repo@v1^{}', /invalid git ref/],
  ['github:owner/repo@a:b', /invalid git ref/],
  ['github:owner/repo@HEAD@{1}', /invalid git ref/],
  ['pkg:github/owner/repo@v1..2', /invalid git ref/],
  ['github:owner/re%70o', /percent-encoding/],
  ['pkg:github/repo', /expected pkg:github\/owner\/repo/],
  // package URLs
  ['pkg:maven/org.apache/commons@1.0', /unsupported package URL type "maven"/],
  ['pkg:cargo/serde', /unsupported package URL type "cargo"/],
  ['pkg:npm', /no name/],
  ['pkg:', /no type|not a valid package URL/],
  ['pkg:npm/express@5.1.0?repository_url=https://evil.example', /repository_url is not supported/],
];

describe('parseTarget rejects bad input with a one-line reason', () => {
  it.each(rejected)('%j', (input, reason) => {
    let caught: unknown;
    try {
      parseTarget(input);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(TargetError);
    const message = (caught as TargetError).message;
    expect(message).toMatch(reason);
    // one printable ASCII line: nothing from the input can steer a terminal
    expect(message).toMatch(/^[\x20-\x7e]+$/);
    expect(message.length).toBeLessThan(240);
  });
});

describe('quoteForMessage', () => {
  it.each([
    ['abc', '"abc"'],
    ['a"b', '"a\\"b"'],
    ['a\u0007b', '"a\\u0007b"'],
    ['\u202eevil', '"\\u202eevil"'],
    ['caf\u00e9', '"caf\\u00e9"'],
    ['x'.repeat(70), `"${'x'.repeat(60)}"...`],
  ])('%j → %s', (text, quoted) => {
    expect(quoteForMessage(text)).toBe(quoted);
  });
});

describe('isMcpServerName: the rule for a typed name and a name a registry search returns', () => {
  it.each([
    ['io.github.owner/server', true],
    ['com.example/my_server-2.x', true],
    ['io.github.evil/tool\u001b[2J', false],
    ['io.github.evil/\u202eloot', false],
    ['io.github.evil/evil tool', false],
    ['..evil/tool', false],
    ['evil./tool', false],
    ['a..b/tool', false],
    ['no-slash', false],
    [`io.github.evil/${'x'.repeat(200)}`, false],
  ])('%j → %s', (name, valid) => {
    expect(isMcpServerName(name)).toBe(valid);
  });
});
