/**
 * `node --import ./bench/register.ts bench/serve.ts [--size 1000] [--latency 40] [--dir DIR]`:
 * serve the bench world on loopback and write a project of `--size` packages to `--dir`, then
 * print the environment a CLI run needs and keep serving until interrupted. For profiling nerq
 * by hand against the same world `npm run bench` measures (e.g. with `node --cpu-prof`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { cliEnv } from './child.js';
import { criticalPath } from './critical-path.js';
import { byRoute } from './requests.js';
import { buildProject } from './generate/lockfile.js';
import { generateWorld } from './generate/world.js';
import { startBenchServer } from './server.js';

const { values } = parseArgs({
  options: { size: { type: 'string' }, latency: { type: 'string' }, dir: { type: 'string' }, seed: { type: 'string' } },
});
const size = Number(values.size ?? 1000);
const latencyMs = Number(values.latency ?? 40);
const dir = path.resolve(values.dir ?? path.join(os.tmpdir(), `nerq-bench-project-${size}`));
const server = await startBenchServer({ latencyMs, connectLatencyMs: latencyMs });
const world = await generateWorld({ seed: Number(values.seed ?? 9), count: size, bodies: size, now: new Date('2026-11-30T00:00:00Z'), registry: server.url('npm') }, Math.min(4, os.availableParallelism()));
await world.extend(Math.max(size, world.model.checkTarget.index + 1));
server.setWorld(world);
const project = buildProject(world.model, size, world.registry, (spec, version) => world.integrityOf(spec, version));
mkdirSync(dir, { recursive: true });
writeFileSync(path.join(dir, 'package.json'), project.packageJson);
writeFileSync(path.join(dir, 'package-lock.json'), project.packageLock);
const env = cliEnv({ home: '$HOME', origin: server.origin, now: '2026-11-30T00:00:00Z', githubToken: 'bench-token' });
const exports = Object.entries(env)
  .filter(([k]) => !['PATH', 'HOME', 'USERPROFILE', 'TMPDIR'].includes(k) && !k.startsWith('XDG_'))
  .map(([k, v]) => `export ${k}='${v}'`)
  .join('\n');
process.stdout.write(`# project: ${dir}\n# check target: ${world.model.checkTarget.name}\n${exports}\n`);
// `kill -USR2 <pid>`: print the requests since the last signal (by route, and the dependent
// rounds on their critical path) to stderr, then start a new log.
process.on('SIGUSR2', () => {
  const log = server.log;
  process.stderr.write(`${log.length} requests, ${criticalPath(log).rounds} rounds on the critical path: ${byRoute(log, 20)}\n`);
  server.resetLog();
});
process.on('SIGINT', () => void server.close().then(() => process.exit(0)));
