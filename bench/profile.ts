/**
 * Where the time goes: a V8 CPU profile (`node --cpu-prof`) of the bundled CLI, attributed to
 * coarse buckets (waiting, parsing, tarball inspection, scoring, rendering, …).
 *
 * The CLI is one bundle, so a frame's file is a dist chunk; the bundler writes a comment line
 * naming each source module where its code starts (`// src/sources/npm/tarball.ts`), and a frame
 * belongs to the module whose marker is the nearest one above its line. A sample in a frame
 * that names no module of ours (a builtin such as JSON.parse, a Node internal) is credited to
 * its nearest caller that does, so JSON.parse called by the packument parser counts as parsing.
 */

export interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber?: number };
  children?: number[];
}

export interface CpuProfile {
  nodes: CpuProfileNode[];
  samples: number[];
  /** Microseconds since the previous sample. */
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** The source module at a bundle file's 0-based line, or null when the file has no markers. */
export type ModuleLocator = (url: string, line: number) => string | null;

export const BUCKETS = [
  'waiting (idle)',
  'start-up & module loading',
  'parsing & validation',
  'tarball inspection',
  'HTTP client',
  'store (cache, history)',
  'scoring',
  'rendering',
  'CLI & orchestration',
  'garbage collection',
  'other (V8, Node internals)',
] as const;
export type Bucket = (typeof BUCKETS)[number];

const MARKER = /^\/\/ ((?:src|node_modules)\/\S+\.(?:[cm]?[jt]s|json))$/;

/** Module markers of one bundle file: ascending [line, module] pairs. */
export function markersOf(text: string): Array<[number, string]> {
  const out: Array<[number, string]> = [];
  text.split('\n').forEach((line, index) => {
    const m = MARKER.exec(line);
    if (m !== null) out.push([index, m[1] as string]);
  });
  return out;
}

/** A locator over bundle files' texts, keyed by the URL the profile names them by. */
export function locatorFor(files: ReadonlyMap<string, string>): ModuleLocator {
  const markers = new Map([...files].map(([url, text]) => [url, markersOf(text)]));
  return (url, line) => {
    const list = markers.get(url);
    if (list === undefined || list.length === 0) return null;
    let lo = 0;
    let hi = list.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if ((list[mid] as [number, string])[0] <= line) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found === -1 ? null : (list[found] as [number, string])[1];
  };
}

const RULES: ReadonlyArray<[RegExp, Bucket]> = [
  [/^src\/sources\/npm\/(tarball|license-text)\.ts$|^node_modules\/(tar|minizlib|minipass|chownr|yallist)\//, 'tarball inspection'],
  [/^src\/sources\/http\/(client|cached|url)\.ts$|^node_modules\/undici\//, 'HTTP client'],
  [/^src\/store\//, 'store (cache, history)'],
  [/^src\/(checks|scoring|report|model)\/|^node_modules\/(spdx-|ae-cvss)/, 'scoring'],
  [/^src\/render\/|^node_modules\/(cli-table3|chalk|string-width|strip-ansi|ansi-|emoji-regex|ora|cli-)/, 'rendering'],
  [/^src\/(sources|evidence|target)\/|^node_modules\/(zod|semver|npm-|hosted-git-info|@renovatebot|validate-npm|smol-toml|yaml|@yarnpkg|packageurl|lru-cache|proc-log|@pnpm|ini|config-chain|proto-list|graceful-fs)/, 'parsing & validation'],
  [/^src\/(cli|app|pipeline|audit)\/|^src\/version\.ts$|^node_modules\/commander\//, 'CLI & orchestration'],
];

/** The bucket of a source module path (as the bundle names it). */
export function bucketOfModule(module: string): Bucket {
  for (const [pattern, bucket] of RULES) if (pattern.test(module)) return bucket;
  return 'other (V8, Node internals)';
}

/** A frame that decides its own bucket without looking at callers, or null to defer to the caller. */
function ownBucket(frame: CpuProfileNode['callFrame'], locate: ModuleLocator): { bucket: Bucket; module: string } | null {
  const { functionName, url, lineNumber } = frame;
  if (functionName === '(idle)') return { bucket: 'waiting (idle)', module: '(idle)' };
  if (functionName === '(garbage collector)') return { bucket: 'garbage collection', module: '(garbage collector)' };
  if (functionName === '(program)') return { bucket: 'other (V8, Node internals)', module: '(program)' };
  if (/^node:internal\/(modules|bootstrap|main|process\/pre_execution)/.test(url)) return { bucket: 'start-up & module loading', module: url };
  if (url.startsWith('node:sqlite')) return { bucket: 'store (cache, history)', module: url };
  if (url === '' || url.startsWith('node:')) return null;
  const module = locate(url, lineNumber);
  // Bundle code above the first module marker: the bundler's own helpers.
  if (module === null) return { bucket: 'other (V8, Node internals)', module: `${url.split('/').at(-1) ?? url} (bundler helpers)` };
  return { bucket: bucketOfModule(module), module };
}

export interface ProfileSummary {
  totalMs: number;
  buckets: Array<{ bucket: Bucket; ms: number; share: number }>;
  /** Source modules by time credited to them, most first. */
  modules: Array<{ module: string; ms: number }>;
}

export function summariseProfile(profile: CpuProfile, locate: ModuleLocator): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  const decided = new Map<number, { bucket: Bucket; module: string }>();
  const decide = (id: number): { bucket: Bucket; module: string } => {
    const known = decided.get(id);
    if (known !== undefined) return known;
    const node = byId.get(id);
    let result: { bucket: Bucket; module: string };
    if (node === undefined) {
      result = { bucket: 'other (V8, Node internals)', module: '(unknown)' };
    } else {
      const own = ownBucket(node.callFrame, locate);
      const up = parent.get(id);
      if (own !== null) result = own;
      else if (up !== undefined && byId.get(up)?.callFrame.functionName !== '(root)') result = decide(up);
      else result = { bucket: 'other (V8, Node internals)', module: node.callFrame.url || `(native ${node.callFrame.functionName || 'code'})` };
    }
    decided.set(id, result);
    return result;
  };

  const bucketMs = new Map<Bucket, number>();
  const moduleMs = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    if (ms <= 0) return;
    const { bucket, module } = decide(id);
    total += ms;
    bucketMs.set(bucket, (bucketMs.get(bucket) ?? 0) + ms);
    moduleMs.set(module, (moduleMs.get(module) ?? 0) + ms);
  });
  return {
    totalMs: total,
    buckets: BUCKETS.map((bucket) => ({ bucket, ms: bucketMs.get(bucket) ?? 0, share: total > 0 ? (bucketMs.get(bucket) ?? 0) / total : 0 })).filter((b) => b.ms > 0),
    modules: [...moduleMs].map(([module, ms]) => ({ module, ms })).sort((a, b) => b.ms - a.ms),
  };
}
