/**
 * The container recipe for `nerq serve` (docs/serve.md, "Container"), checked as data: CI has
 * no container runtime, so the image is never built there; what can be known without building
 * it is asserted here.
 *
 * The Dockerfile is read by a small reader (below) rather than a parser library: none is in the
 * dependency tree, and the recipe uses a handful of instructions in their plain forms. The
 * reader joins continuation lines, drops comments and refuses any instruction it does not know,
 * so a recipe that outgrows it fails here instead of being half-read.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { cacheDir } from '../../src/store/cache-dir.js';
import { REPO_ROOT } from '../support/run-cli.js';

interface Instruction {
  keyword: string;
  args: string;
  line: number;
}

interface Stage {
  image: string;
  name: string | null;
  instructions: Instruction[];
}

const KNOWN = new Set(['FROM', 'WORKDIR', 'COPY', 'RUN', 'ENV', 'USER', 'EXPOSE', 'ENTRYPOINT', 'CMD', 'ARG', 'LABEL']);

/** The instructions of a Dockerfile, continuation lines joined, comments dropped. */
function readDockerfile(text: string): Instruction[] {
  const out: Instruction[] = [];
  let pending: { text: string; line: number } | null = null;
  text.split('\n').forEach((raw, index) => {
    const line = raw.trimEnd();
    if (pending === null && (line.trim() === '' || line.trim().startsWith('#'))) return;
    const joined: { text: string; line: number } = pending === null ? { text: line.trim(), line: index + 1 } : { text: `${pending.text} ${line.trim()}`, line: pending.line };
    if (joined.text.endsWith('\\')) {
      pending = { text: joined.text.slice(0, -1).trimEnd(), line: joined.line };
      return;
    }
    pending = null;
    const match = /^(\S+)\s*(.*)$/.exec(joined.text)!;
    out.push({ keyword: match[1]!.toUpperCase(), args: match[2]!, line: joined.line });
  });
  expect(pending, 'the Dockerfile ends inside a continued line').toBeNull();
  return out;
}

function stagesOf(instructions: readonly Instruction[]): Stage[] {
  const stages: Stage[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const [image, as, name] = instruction.args.split(/\s+/);
      stages.push({ image: image!, name: as?.toUpperCase() === 'AS' ? name! : null, instructions: [] });
    } else {
      expect(stages.length, `line ${instruction.line}: ${instruction.keyword} before FROM`).toBeGreaterThan(0);
      stages.at(-1)!.instructions.push(instruction);
    }
  }
  return stages;
}

interface Copy {
  from: string | null;
  sources: string[];
  destination: string;
  line: number;
}

/** COPY [--from=stage] [--chown=…] src… dest (the shell form; the recipe uses no JSON form). */
function copiesOf(stage: Stage): Copy[] {
  return stage.instructions
    .filter((i) => i.keyword === 'COPY')
    .map((i) => {
      const words = i.args.split(/\s+/);
      const flags = words.filter((w) => w.startsWith('--'));
      const paths = words.filter((w) => !w.startsWith('--'));
      const from = flags.find((f) => f.startsWith('--from='))?.slice('--from='.length) ?? null;
      return { from, sources: paths.slice(0, -1), destination: paths.at(-1)!, line: i.line };
    });
}

/** The last WORKDIR of a stage before `line` (absolute; the recipe sets absolute ones). */
function workdirAt(stage: Stage, line: number): string {
  const dirs = stage.instructions.filter((i) => i.keyword === 'WORKDIR' && i.line < line);
  return dirs.at(-1)?.args ?? '/';
}

const exec = (i: Instruction | undefined): string[] => {
  expect(i, 'ENTRYPOINT and CMD are present').toBeDefined();
  // Exec form: node is PID 1 and receives SIGTERM itself (a shell in between would not pass it on,
  // and the graceful shutdown of docs/serve.md would never run).
  const parsed: unknown = JSON.parse(i!.args);
  expect(Array.isArray(parsed) && parsed.every((w) => typeof w === 'string'), `line ${i!.line}: exec form (a JSON array of strings)`).toBe(true);
  return parsed as string[];
};

const text = readFileSync(path.join(REPO_ROOT, 'Dockerfile'), 'utf8');
const instructions = readDockerfile(text);
const stages = stagesOf(instructions);
const final = stages.at(-1)!;
const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
  bin: Record<string, string>;
  files: string[];
  engines: { node: string };
  devDependencies: Record<string, string>;
};
const dockerignore = readFileSync(path.join(REPO_ROOT, '.dockerignore'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l !== '' && !l.startsWith('#'));
const containerDocs = (() => {
  const serveDoc = readFileSync(path.join(REPO_ROOT, 'docs', 'serve.md'), 'utf8');
  const start = serveDoc.indexOf('## Container');
  expect(start).toBeGreaterThan(-1);
  const end = serveDoc.indexOf('\n## ', start + 1);
  return serveDoc.slice(start, end === -1 ? undefined : end);
})();
/** Every `docker run` line: in docs/serve.md's Container section and in the Dockerfile's own comments. */
const runLines = [...containerDocs.split('\n'), ...text.split('\n')].filter((l) => /docker run /.test(l));

describe('Dockerfile, read as data', () => {
  it('uses only instructions the reader knows, and two stages: a build and the image that runs', () => {
    for (const i of instructions) expect(KNOWN, `line ${i.line}: ${i.keyword}`).toContain(i.keyword);
    expect(stages).toHaveLength(2);
    expect(stages[0]!.name).not.toBeNull();
  });

  it('runs as a non-root user, set before the entry point and the command', () => {
    const users = final.instructions.filter((i) => i.keyword === 'USER');
    expect(users.length).toBeGreaterThan(0);
    const user = users.at(-1)!.args.split(':')[0]!;
    expect(['root', '0']).not.toContain(user);
    const start = Math.min(...final.instructions.filter((i) => i.keyword === 'ENTRYPOINT' || i.keyword === 'CMD').map((i) => i.line));
    expect(users.at(-1)!.line).toBeLessThan(start);
    // Nothing after the switch needs root.
    expect(final.instructions.filter((i) => i.keyword === 'RUN' && i.line > users.at(-1)!.line)).toEqual([]);
  });

  it('builds from a Node image of the major the project pins and supports', () => {
    const pinned = semver.major(pkg.devDependencies.node!);
    for (const stage of stages) {
      const match = /^node:(\d+)(?:[.-][\w.-]*)?$/.exec(stage.image);
      expect(match, `${stage.image}: an official node image with its major in the tag`).not.toBeNull();
      const major = Number(match![1]);
      expect(major).toBe(pinned);
      expect(semver.intersects(pkg.engines.node, `${major}.x`)).toBe(true);
    }
    // The bundle runs on the Node that built it.
    expect(new Set(stages.map((s) => s.image)).size).toBe(1);
  });

  it('copies from the build context only files that exist and that .dockerignore does not leave out, one by one', () => {
    for (const stage of stages) {
      for (const copy of copiesOf(stage).filter((c) => c.from === null)) {
        for (const source of copy.sources) {
          // No `.` or wildcard: nothing reaches the image that the recipe does not name (no token file, no .env).
          expect(source, `line ${copy.line}`).not.toMatch(/^\.\/?$|[*?[]/);
          expect(existsSync(path.join(REPO_ROOT, source)), `line ${copy.line}: ${source} exists`).toBe(true);
          const top = source.replace(/^\.\//, '').split('/')[0]!;
          expect(dockerignore, `line ${copy.line}: ${source} is not in .dockerignore`).not.toContain(top);
        }
      }
    }
  });

  it('builds the bundle with the project build and the files it reads, and ships it from the build output', () => {
    const [build] = stages;
    const copied = copiesOf(build!).flatMap((c) => c.sources);
    for (const input of ['package.json', 'package-lock.json', 'tsconfig.json', 'tsup.config.ts', 'src']) expect(copied).toContain(input);
    const runs = build!.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args);
    expect(runs.some((r) => /^npm ci\b/.test(r) && r.includes('--ignore-scripts'))).toBe(true);
    expect(runs.some((r) => /\b(npx tsup|npm run build)\b/.test(r))).toBe(true);
    // The final stage takes dist/ where the build writes it: the build stage's WORKDIR + tsup's outDir.
    // tsup.config.ts: `outDir: OUT_DIR`, NERQ_BUILD_OUT or dist/ (read as text: loading tsup takes seconds).
    const outDir = /const OUT_DIR = process\.env\.NERQ_BUILD_OUT \?\? '([^']+)';/.exec(readFileSync(path.join(REPO_ROOT, 'tsup.config.ts'), 'utf8'))?.[1];
    expect(outDir, 'tsup.config.ts names its output directory as this test reads it').toBeDefined();
    const fromBuild = copiesOf(final).filter((c) => c.from === build!.name);
    const dist = fromBuild.find((c) => c.sources.some((s) => path.posix.basename(s) === 'dist'));
    expect(dist).toBeDefined();
    expect(dist!.sources).toContain(path.posix.join(workdirAt(build!, Infinity), outDir!));
  });

  it('puts into the image that runs only what the published package holds (package.json `files`), no sources, no node_modules', () => {
    const shipped = copiesOf(final).flatMap((c) => c.sources.map((s) => path.posix.basename(s)));
    const files = pkg.files.map((f) => f.replace(/\/$/, ''));
    for (const name of shipped) expect(['package.json', ...files], name).toContain(name);
    expect(shipped).not.toContain('src');
    expect(shipped).not.toContain('node_modules');
    for (const required of ['package.json', 'dist', 'bin']) expect(shipped).toContain(required);
  });

  it('starts the built CLI’s `serve` on every interface of the container, on the port it exposes', () => {
    const command = [...exec(final.instructions.findLast((i) => i.keyword === 'ENTRYPOINT')), ...exec(final.instructions.findLast((i) => i.keyword === 'CMD'))];
    const [node, script, subcommand, ...options] = command;
    expect(node).toBe('node');
    // bin/nerq.js, as package.json names it, where the final stage copied bin/.
    expect(script).toBe(pkg.bin.nerq);
    const binCopy = copiesOf(final).find((c) => c.sources.includes('bin'))!;
    expect(path.posix.resolve(workdirAt(final, binCopy.line), binCopy.destination)).toBe(path.posix.dirname(path.posix.resolve(workdirAt(final, Infinity), script!)));
    expect(subcommand).toBe('serve');
    const option = (name: string) => options[options.indexOf(name) + 1];
    // Loopback inside a container is unreachable from outside it: docs/serve.md says so.
    expect(option('--host')).toBe('0.0.0.0');
    expect(containerDocs).toContain('`--host 0.0.0.0`');
    const exposed = final.instructions.filter((i) => i.keyword === 'EXPOSE').map((i) => i.args);
    expect(exposed).toEqual([option('--port')]);
    // Every documented `-p host:container` publishes the exposed port.
    const published = runLines.flatMap((l) => [...l.matchAll(/-p\s+(?:[\d.]+:)?\d+:(\d+)/g)].map((m) => m[1]));
    expect(published.length).toBeGreaterThan(0);
    for (const port of published) expect(port).toBe(exposed[0]);
  });

  it('persists the store where nerq keeps it: the volumes the docs mount are the node user’s cache directory, created and owned by that user', () => {
    const home = '/home/node';
    const store = cacheDir({ HOME: home }, 'linux');
    const volumes = runLines.flatMap((l) => [...l.matchAll(/-v\s+"?([^:\s"]+):([^:\s"]+)(?::(ro))?"?/g)]).filter((m) => m[3] !== 'ro' && !m[1]!.includes('/'));
    expect(volumes.length).toBeGreaterThan(0);
    for (const volume of volumes) {
      const mount = volume[2]!;
      expect(store === mount || store.startsWith(`${mount}/`), `${mount} holds ${store}`).toBe(true);
      expect(mount.startsWith(`${home}/`)).toBe(true);
    }
    // A named volume takes the ownership of the directory it is mounted on: the image creates it for the user.
    const setup = final.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args).join(' && ');
    for (const volume of volumes) expect(setup).toContain(volume[2]!);
    expect(setup).toMatch(new RegExp(`chown -R node:node ${home}\\b`));
  });

  it('holds no secret: no build argument, no credential-like variable, and the .npmrc the build reads carries no auth', () => {
    expect(instructions.filter((i) => i.keyword === 'ARG')).toEqual([]);
    for (const env of instructions.filter((i) => i.keyword === 'ENV')) {
      const names = env.args.split(/\s+/).map((pair) => pair.split('=')[0]!);
      for (const name of names) expect(name, `line ${env.line}`).not.toMatch(/token|secret|passw|auth|credential|key/i);
    }
    expect(text).not.toMatch(/GITHUB_TOKEN|NPM_TOKEN|_authToken/);
    const npmrc = readFileSync(path.join(REPO_ROOT, '.npmrc'), 'utf8');
    expect(npmrc).not.toMatch(/_auth|_password|token|username/i);
    // The .npmrc is read by the build stage only.
    expect(copiesOf(final).flatMap((c) => c.sources)).not.toContain('.npmrc');
  });
});

describe('the Dockerfile reader', () => {
  it('joins continued lines, drops comments and keeps the first line number', () => {
    const read = readDockerfile('# syntax comment\nFROM node:24-slim AS build\n\nRUN a \\\n  && b\n# between\nCMD ["x"]\n');
    expect(read).toEqual([
      { keyword: 'FROM', args: 'node:24-slim AS build', line: 2 },
      { keyword: 'RUN', args: 'a && b', line: 4 },
      { keyword: 'CMD', args: '["x"]', line: 7 },
    ]);
    expect(stagesOf(read).map((s) => [s.image, s.name])).toEqual([['node:24-slim', 'build']]);
  });
});
