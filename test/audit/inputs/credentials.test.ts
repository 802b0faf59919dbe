/**
 * Where an entry resolves from loses its credentials before anything reads it (docs/security.md):
 * a private index in a requirements file, a Poetry source, an npm lockfile's `resolved` — the
 * report, its warnings and the store would otherwise carry the token.
 */
import { describe, expect, it } from 'vitest';
import { readInputText } from '../../../src/lockfiles/index.js';

const TOKENS = /s3cr3t|PTOKEN|QTOKEN|NTOKEN/;

const POETRY = `[[package]]
name = "requests"
version = "2.31.0"
description = ""
optional = false
python-versions = ">=3.7"
files = []

[package.source]
type = "legacy"
url = "https://carol:PTOKEN4@private.example.test/simple"
reference = "private"

[metadata]
lock-version = "2.0"
python-versions = "^3.11"
content-hash = "x"
`;

const PACKAGE_LOCK = JSON.stringify({
  name: 'app',
  lockfileVersion: 3,
  packages: {
    '': { name: 'app', dependencies: { chalk: '^4.1.0' } },
    'node_modules/chalk': {
      version: '4.1.0',
      resolved: 'https://dave:NTOKEN5@registry.example.test/chalk/-/chalk-4.1.0.tgz?token=QTOKEN6',
      integrity: 'sha512-qwx12AxXe2Q5xQ43Ac//I6v5aXTipYrSESdOgzrN+9XjgEpyjpKuvSGaN4qE93f7TQTlerQQ8S+EQ0EyDoVL1A==',
    },
  },
});

describe('credentials in where an entry resolves from', () => {
  it.each([
    ['requirements.txt', '--index-url https://alice:s3cr3t@pypi.example.test/simple?key=QTOKEN3\nrequests==2.31.0\n', 'https://pypi.example.test/simple'],
    ['poetry.lock', POETRY, 'https://private.example.test/simple'],
    ['package-lock.json', PACKAGE_LOCK, 'https://registry.example.test/chalk/-/chalk-4.1.0.tgz'],
  ])('%s: resolved keeps host and path, never the user, password or query', (file, text, expected) => {
    const input = readInputText(text, file);
    expect(input.dependencies).toHaveLength(1);
    expect(input.dependencies[0]?.resolved).toBe(expected);
    expect(JSON.stringify(input)).not.toMatch(TOKENS);
  });
});
