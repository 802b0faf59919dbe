/**
 * Package tarballs, built in memory: a real ustar archive (headers encoded by node-tar's
 * `Header`) of `package/package.json`, `README.md`, `LICENSE` and JavaScript files of a
 * realistic size and compressibility, gzipped like `npm pack` does. The registry's
 * `dist.integrity` is the sha512 of exactly these bytes.
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { Header } from 'tar';
import type { Random } from '../random.js';
import { NAME_WORDS } from './words.js';

const BLOCK = 512;
/** npm packs every file with this mtime (1985-10-26T08:15:00Z). */
const NPM_MTIME = new Date(499162500 * 1000);

export interface TarFile {
  path: string;
  content: Buffer;
}

export interface BuiltTarball {
  bytes: Buffer;
  integrity: string;
  shasum: string;
  fileCount: number;
  unpackedSize: number;
}

/** A gzipped tar of `files`, each under `package/`. */
export function buildTarball(files: readonly TarFile[], level = 4): BuiltTarball {
  const blocks: Buffer[] = [];
  let unpackedSize = 0;
  for (const file of files) {
    const header = new Header({
      path: `package/${file.path}`,
      mode: 0o644,
      size: file.content.length,
      mtime: NPM_MTIME,
      type: 'File',
      uid: 0,
      gid: 0,
    });
    const block = Buffer.alloc(BLOCK);
    header.encode(block, 0);
    blocks.push(block, file.content);
    const padding = (BLOCK - (file.content.length % BLOCK)) % BLOCK;
    if (padding > 0) blocks.push(Buffer.alloc(padding));
    unpackedSize += file.content.length;
  }
  blocks.push(Buffer.alloc(BLOCK * 2));
  const bytes = gzipSync(Buffer.concat(blocks), { level });
  return {
    bytes,
    integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
    shasum: createHash('sha1').update(bytes).digest('hex'),
    fileCount: files.length,
    unpackedSize,
  };
}

const identifier = (r: Random): string => {
  const a = r.pick(NAME_WORDS);
  const b = r.pick(NAME_WORDS);
  return `${a}${b.charAt(0).toUpperCase()}${b.slice(1)}`;
};

/** JavaScript-looking source of about `bytes` bytes: compresses about as well as real code. */
export function javascriptText(r: Random, bytes: number): string {
  const lines: string[] = ["'use strict';", ''];
  let size = 16;
  while (size < bytes) {
    const fn = identifier(r);
    const a = identifier(r);
    const b = identifier(r);
    const chunk = [
      `/**`,
      ` * ${capitalise(r.pick(NAME_WORDS))} the ${r.pick(NAME_WORDS)} of a ${r.pick(NAME_WORDS)} (${r.int(1, 9999)}).`,
      ` */`,
      `function ${fn}(${a}, ${b}) {`,
      `  if (${a} == null) return ${r.pick(['null', 'undefined', '0', "''", '[]'])};`,
      `  const ${identifier(r)} = ${a}.${r.pick(NAME_WORDS)}(${b}, ${r.int(0, 4096)});`,
      `  for (let i = 0; i < ${b}.length; i += ${r.int(1, 8)}) {`,
      `    ${a}[i] = ${b}[i] ${r.pick(['+', '-', '*', '^', '|', '&'])} 0x${r.hex(4)};`,
      `  }`,
      `  return ${r.pick(['Object.freeze', 'JSON.stringify', 'String', 'Array.from', 'Boolean'])}(${a});`,
      `}`,
      `module.exports.${fn} = ${fn};`,
      '',
    ].join('\n');
    lines.push(chunk);
    size += chunk.length + 1;
  }
  return lines.join('\n');
}

/** A README in Markdown of about `bytes` bytes. */
export function readmeText(r: Random, name: string, description: string, bytes: number): string {
  const parts = [`# ${name}`, '', description, '', '## Install', '', '```sh', `npm install ${name}`, '```', '', '## Usage', ''];
  let size = parts.join('\n').length;
  let section = 0;
  while (size < bytes) {
    const block =
      section % 3 === 0
        ? ['```js', `import { ${identifier(r)} } from '${name}';`, `${identifier(r)}(${r.int(0, 99)});`, '```', '']
        : [`### ${capitalise(r.pick(NAME_WORDS))} ${r.pick(NAME_WORDS)}`, '', `${capitalise(r.pick(NAME_WORDS))} ${r.pick(NAME_WORDS)} ${r.pick(NAME_WORDS)} with ${r.pick(NAME_WORDS)} and ${r.pick(NAME_WORDS)}; returns a ${r.pick(NAME_WORDS)} when the ${r.pick(NAME_WORDS)} is ${r.pick(NAME_WORDS)}.`, ''];
    parts.push(...block);
    size += block.join('\n').length + 1;
    section++;
  }
  return parts.join('\n');
}

export function mitLicenseText(year: number, holder: string): string {
  return `MIT License

Copyright (c) ${year} ${holder}

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
`;
}

/** The ISC licence (the other common short one). */
export function iscLicenseText(year: number, holder: string): string {
  return `ISC License

Copyright (c) ${year} ${holder}

Permission to use, copy, modify, and/or distribute this software for any
purpose with or without fee is hereby granted, provided that the above
copyright notice and this permission notice appear in all copies.

THE SOFTWARE IS PROVIDED "AS IS" AND THE AUTHOR DISCLAIMS ALL WARRANTIES
WITH REGARD TO THIS SOFTWARE INCLUDING ALL IMPLIED WARRANTIES OF
MERCHANTABILITY AND FITNESS. IN NO EVENT SHALL THE AUTHOR BE LIABLE FOR
ANY SPECIAL, DIRECT, INDIRECT, OR CONSEQUENTIAL DAMAGES OR ANY DAMAGES
WHATSOEVER RESULTING FROM LOSS OF USE, DATA OR PROFITS, WHETHER IN AN
ACTION OF CONTRACT, NEGLIGENCE OR OTHER TORTIOUS ACTION, ARISING OUT OF
OR IN CONNECTION WITH THE USE OR PERFORMANCE OF THIS SOFTWARE.
`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
