/**
 * While a tarball streams past (tarball.ts), keep the files its install scripts run and the
 * local modules those load, so that install-scripts can read the code npm runs at install, not
 * only the command that starts it (docs/checks.md, `install-scripts`).
 *
 * Nothing is kept for a package without install scripts. The commands come from the registry's
 * manifest before the download starts, and from the archive's own package.json as soon as it has
 * been read (it usually comes first). The files a command names are kept up to
 * WANTED_FILE_BYTES each, and a longer one up to LARGE_FILE_BYTES while the archive's and the
 * process's budgets for such bytes last (a worm's bundle is a few MiB of minified code with its
 * payload at the end: docs/checks.md, `install-scripts`); other small code files are kept in a
 * pool (POOL_FILE_BYTES each, POOL_BYTES together) in case a kept file loads them, or a command
 * names them only in a package.json read later. Memory stays bounded whatever the archive holds,
 * and however many archives are read at once.
 *
 * The packages the tarball bundles under `node_modules/` run their install scripts too, each in
 * its own folder (docs/security.md, "Bundled dependencies"): their commands name files by their
 * paths in the tarball (`node_modules/helper/index.js`), kept with caps of their own
 * (MAX_BUNDLED_WANTED_FILES, MAX_BUNDLED_FACT_FILES), so that many bundled packages cannot push
 * the package's own install code out of what is read; a bundled file is pooled only once its
 * package is known to run something. A file a bundled command names that is left unread is listed
 * in `unreadBundled`, which install-scripts does not read as clean.
 */
import { folderOf, gypTargets } from '../../checks/lib/gyp-commands.js';
import { folderPaths, installTargets, localImports, type CodeLanguage, type FolderManifest } from '../../checks/lib/install-targets.js';
import { MAX_SCANNED_CHARS } from '../../checks/lib/js-code.js';
import { addsCalls, joinCalls, loadedCalls, NO_CALLS, runningText, type Calls } from '../../checks/lib/install-reach.js';
import { loadTimeText } from '../../checks/lib/load-code.js';
import type { TarballFacts } from '../../evidence/schema.js';

type InstallCode = NonNullable<TarballFacts['installCode']>;
type UnreadCause = NonNullable<InstallCode['unreadCauses']>[string];

const MiB = 1024 * 1024;
/** A file a command names is kept up to this many bytes whatever the budgets below. */
const WANTED_FILE_BYTES = MiB;
/**
 * A longer one up to this many (what the scanners read of a file), taking the bytes past
 * WANTED_FILE_BYTES from the archive's LARGE_BYTES_PER_ARCHIVE and from the process's budget
 * (largeCodeBudget): when either is spent it is kept to WANTED_FILE_BYTES, and the facts say it
 * is truncated, which install-scripts does not read as clean.
 */
const LARGE_FILE_BYTES = MAX_SCANNED_CHARS;
const LARGE_BYTES_PER_ARCHIVE = MAX_SCANNED_CHARS;
/**
 * Bytes past WANTED_FILE_BYTES kept at once by all the archives being read (an audit reads many at
 * once): a few worm-sized bundles together, while a lockfile full of them cannot hold gigabytes.
 */
const LARGE_BYTES_AT_ONCE = 64 * MiB;
/** Files a command names, kept at most. */
const MAX_WANTED_FILES = 16;
/** Files the commands of bundled packages name (and nothing of the package's own names), kept at most. */
const MAX_BUNDLED_WANTED_FILES = 16;
/** Pool: other code files up to this size each, this many bytes together. */
const POOL_FILE_BYTES = MiB;
const POOL_BYTES = 4 * MiB;
/** Paths of the archive remembered at most (to tell a missing file from an unread one). */
const MAX_PATHS = 100_000;
/**
 * Files in the facts at most (targets and the modules they load), the text of a file a command
 * names, of a module it loads, and of all together. The modules an entry module loads
 * (load-time-code) are read to MAX_LOAD_FACT_FILES.
 */
const MAX_FACT_FILES = 256;
const MAX_LOAD_FACT_FILES = 64;
const FACT_TARGET_CHARS = LARGE_FILE_BYTES;
const FACT_MODULE_CHARS = MiB;
const FACT_TOTAL_CHARS = LARGE_FILE_BYTES + 4 * MiB;
/** The same caps for what bundled packages' commands run, read after the package's own. */
const MAX_BUNDLED_FACT_FILES = 16;
const BUNDLED_FACT_TOTAL_CHARS = FACT_TOTAL_CHARS;
/** Paths listed in `unreadBundled` at most (any at all holds the verdict). */
const MAX_UNREAD_BUNDLED = 64;
/**
 * Paths the reading of the package's own code, and of bundled code, adds to `unread` at most (a
 * thousand bundled packages name thousands); those past it are counted in `unreadMore`.
 */
const MAX_UNREAD_LISTED = 256;
/**
 * Times the calls into modules already read may grow (a module found to run more of its exports),
 * and characters read again for it, before every loaded module is judged whole.
 */
const MAX_CALL_UPDATES = MAX_FACT_FILES;
const MAX_CALL_UPDATE_CHARS = 4 * FACT_TOTAL_CHARS;

/** An install command, with the folder of the tarball it runs in (a bundled package's: `node_modules/helper`). */
export interface PlacedCommand {
  command: string;
  dir: string;
}

/**
 * The folder of the package a path of the tarball belongs to: the innermost bundled package's
 * (`node_modules/a/node_modules/@s/b`), or '' for the package's own.
 */
function packageFolderOf(path: string): string {
  return /^(?:.*\/)?node_modules\/(?:@[^/]+\/)?[^/]+(?=\/)/.exec(path)?.[0] ?? '';
}
/** Bytes that may still be lent to files past WANTED_FILE_BYTES (shared by the collectors it is given to). */
export class LargeCodeBudget {
  private free: number;

  constructor(free: number = LARGE_BYTES_AT_ONCE) {
    this.free = free;
  }

  /** All of `bytes`, or nothing. */
  take(bytes: number): boolean {
    if (bytes > this.free) return false;
    this.free -= bytes;
    return true;
  }

  give(bytes: number): void {
    this.free += bytes;
  }
}

/** The process's budget, shared by every archive read. */
const largeCodeBudget = new LargeCodeBudget();

/** A file that may hold install code: JavaScript, shell, Python, or no extension (`bin/setup`). */
const CODE_FILE = /(?:\.(?:[cm]?js|sh|py)|\/[^./]+|^[^./]+)$/i;

export interface CodeHolder {
  chunks: Buffer[];
  kept: number;
  size: number;
  /** Bytes kept at most. */
  cap: number;
  /** Bytes of the cap lent by the large-file budgets (returned when the facts are made). */
  lent: number;
  /** A pool file (not one a command names). */
  pooled: boolean;
}

/**
 * The build files node-gyp includes beside a `binding.gyp` without being asked (its configure step
 * adds `-I config.gypi` and `-I common.gypi` from the folder it builds in, when they exist): read
 * as the build file's own, and not missed when absent.
 */
function autoIncluded(target: { language: CodeLanguage; path: string }): { language: 'gyp'; path: string; candidates: string[]; loaded: true }[] {
  if (target.language !== 'gyp' || !/(?:^|\/)binding\.gyp$/.test(target.path)) return [];
  const dir = target.path.slice(0, target.path.length - 'binding.gyp'.length);
  return ['config.gypi', 'common.gypi'].map((name) => ({ language: 'gyp', path: `${dir}${name}`, candidates: [`${dir}${name}`], loaded: true }));
}

export class InstallCodeCollector {
  /** Files the package's own commands name (and those they load or run). */
  private readonly wanted = new Set<string>();
  /** Files the commands of bundled packages name, with caps of their own. */
  private readonly wantedBundled = new Set<string>();
  /** Bundled package folders known to run something (a command, a binding.gyp): their small code files are pooled. */
  private readonly activeFolders = new Set<string>();
  private wantedBundledFiles = 0;
  private readonly kept = new Map<string, CodeHolder>();
  /** Code files met and not kept, with the cap that left them (at most MAX_PATHS). */
  private readonly skipped = new Map<string, UnreadCause>();
  private readonly paths = new Set<string>();
  private pathsOverflow = false;
  private poolBytes = 0;
  private wantedFiles = 0;
  /** Bytes lent to this archive's files past WANTED_FILE_BYTES. */
  private lent = 0;
  /** True from the start when the registry names an install command; else once package.json does. */
  private active: boolean;
  /** The archive was read from its start with the commands known (a missing file is really missing). */
  private readonly activeFromStart: boolean;

  /**
   * Files a command ran that streamed past before this reading knew of them (reread): a
   * second reading that wants them from the start reads them (src/ecosystems/npm/collect.ts).
   */
  private readonly late: string[] = [];
  private readonly lateBundled: string[] = [];
  /** Paths the files the reading wants load (by relative path or a path built from their folder), and those these load, once read to their end (ended). */
  private readonly reachable = new Set<string>();
  /** The pool files the reading of the package's own commands read. */
  private readonly pooledRead: string[] = [];
  /** What each folder's package.json ('' the package's own) lets its commands run: `main` (`node .`) and its scripts (`npm run x`). */
  private readonly manifests = new Map<string, FolderManifest>();
  /** The folders of the binding.gyp files node-gyp loads: where the commands of the files they include run. */
  private readonly buildDirs = new Set<string>(['']);

  private readonly budget: LargeCodeBudget;
  private readonly kind: 'install' | 'load';

  /**
   * `wantedPaths`, `wantedBundledPaths`: files wanted from the start (a second reading's, named by
   * the first one's reread and rereadBundled). `kind`: `load` for the entry modules a `require`
   * loads (docs/checks.md, `load-time-code`): small code files are pooled from the start (the
   * entry module may come before the package.json that names it), and a binding.gyp is not code
   * a load runs.
   */
  constructor(
    commands: readonly string[],
    budget: LargeCodeBudget = largeCodeBudget,
    wantedPaths: readonly string[] = [],
    wantedBundledPaths: readonly string[] = [],
    kind: 'install' | 'load' = 'install',
  ) {
    this.budget = budget;
    this.kind = kind;
    this.active = wantedPaths.length > 0 || wantedBundledPaths.length > 0 || kind === 'load';
    for (const path of wantedPaths) this.wanted.add(path);
    for (const path of wantedBundledPaths) {
      this.wantedBundled.add(path);
      const folder = packageFolderOf(path);
      if (folder !== '') this.activeFolders.add(folder);
    }
    this.addCommands(commands);
    this.activeFromStart = this.active;
  }

  /**
   * After facts(): the files it lists unread only because they came before the command that
   * names them was known (the archive's own package.json or binding.gyp named it later), not
   * because of a cap.
   */
  reread(): string[] {
    // With them, the pooled modules read: a second reading wants all of them from the start, so that the pool goes to
    // what the install code loads before other files of the archive (file(): a wanted file's bytes come first).
    return this.late.length === 0 ? [] : [...new Set([...this.late, ...this.pooledRead])];
  }

  /** As reread, for the files bundled packages' commands run (wanted from the start with their own caps). */
  rereadBundled(): string[] {
    return [...this.lateBundled];
  }

  /**
   * Commands npm will run (the registry's, then the archive's package.json's; a bundled package's,
   * run in its folder `dir`): their files are wanted.
   */
  addCommands(commands: readonly string[], dir = '', manifest?: FolderManifest): void {
    const wanted = dir === '' ? this.wanted : this.wantedBundled;
    if (manifest !== undefined) this.manifests.set(dir, manifest);
    for (const command of commands) {
      if (command.trim() === '') continue;
      this.active = true;
      if (dir !== '') this.activeFolders.add(dir);
      for (const target of installTargets(command, dir, this.manifests.get(dir))) {
        for (const candidate of target.candidates) wanted.add(candidate);
        for (const config of autoIncluded(target)) wanted.add(config.path);
        if (target.language === 'gyp') this.buildDirs.add(folderOf(target.path));
      }
    }
  }

  /**
   * One file of the tarball (its installed path): a holder when its text is kept. `bundledFolder`:
   * the folder of the bundled package it is in (`node_modules/helper`), for a file under `node_modules/`.
   */
  file(path: string, size: number, bundledFolder?: string): CodeHolder | null {
    // A binding.gyp makes npm run node-gyp even without an install script (install-hooks.ts), in the
    // package's folder or a bundled package's, and node-gyp reads the config.gypi and common.gypi beside it.
    const name = bundledFolder === undefined ? path : path.slice(bundledFolder.length + 1);
    if (this.kind === 'install' && (name === 'binding.gyp' || name === 'config.gypi' || name === 'common.gypi')) {
      this.active = true;
      if (bundledFolder === undefined) this.wanted.add(path);
      else {
        this.wantedBundled.add(path);
        this.activeFolders.add(bundledFolder);
        this.buildDirs.add(bundledFolder);
      }
    }
    if (!this.active) return null;
    if (this.paths.size < MAX_PATHS) this.paths.add(path);
    else this.pathsOverflow = true;
    const own = this.wanted.has(path) && this.wantedFiles < MAX_WANTED_FILES;
    if (this.wanted.has(path) && !own) this.notKept(path, { cap: 'wanted-files', limit: MAX_WANTED_FILES });
    else if (this.wantedBundled.has(path) && this.wantedBundledFiles >= MAX_BUNDLED_WANTED_FILES) this.notKept(path, { cap: 'wanted-files', limit: MAX_BUNDLED_WANTED_FILES });
    if (own || (this.wantedBundled.has(path) && this.wantedBundledFiles < MAX_BUNDLED_WANTED_FILES)) {
      if (own) this.wantedFiles += 1;
      else this.wantedBundledFiles += 1;
      this.release(path);
      // Past the first MiB, all of the rest (to LARGE_FILE_BYTES) or none of it.
      const more = Math.min(size, LARGE_FILE_BYTES) - WANTED_FILE_BYTES;
      const lent = more > 0 && this.lent + more <= LARGE_BYTES_PER_ARCHIVE && this.budget.take(more) ? more : 0;
      this.lent += lent;
      return this.hold(path, size, WANTED_FILE_BYTES + lent, lent, false);
    }
    if (bundledFolder !== undefined && !this.activeFolders.has(bundledFolder)) return null;
    if (!CODE_FILE.test(path)) return null;
    // A file wanted by name (a second reading's) takes the pool's bytes from files kept only in case they are loaded.
    if (size <= POOL_FILE_BYTES && this.poolBytes + size > POOL_BYTES && this.preferred(path)) this.makeRoom(size);
    if (size > POOL_FILE_BYTES) this.notKept(path, { cap: 'module-size', limit: POOL_FILE_BYTES });
    else if (this.poolBytes + size > POOL_BYTES) this.notKept(path, { cap: 'module-pool', limit: POOL_BYTES });
    if (size > POOL_FILE_BYTES || this.poolBytes + size > POOL_BYTES) return null;
    this.release(path);
    this.poolBytes += size;
    return this.hold(path, size, POOL_FILE_BYTES, 0, true);
  }

  /**
   * A kept file read to its end: the commands of a build file (gyp-commands.ts) are commands too,
   * whose files are wanted.
   */
  ended(path: string): void {
    const holder = this.kept.get(path);
    if (holder !== undefined && /\.[cm]?js$/i.test(path) && this.preferred(path)) {
      // The modules a file the reading wants loads are wanted in the pool before other files (makeRoom).
      const text = new TextDecoder('utf-8').decode(Buffer.concat(holder.chunks));
      for (const candidates of localImports(text, path)) for (const candidate of candidates) this.reachable.add(candidate);
      for (const target of folderPaths(text, path)) this.reachable.add(target.path);
    }
    if (holder === undefined || !/\.gypi?$/.test(path)) return;
    const wanted = this.wanted.has(path) ? this.wanted : this.wantedBundled.has(path) ? this.wantedBundled : null;
    if (wanted === null) return;
    this.active = true;
    const text = new TextDecoder('utf-8').decode(Buffer.concat(holder.chunks));
    // An included file's commands run in the folder of the build file that includes it: want them from each (of the same package).
    const pkg = packageFolderOf(path);
    for (const dir of new Set([folderOf(path), ...[...this.buildDirs].filter((d) => packageFolderOf(`${d}/x`) === pkg)])) {
      for (const target of gypTargets(path, text, dir)) for (const candidate of target.candidates) wanted.add(candidate);
    }
  }

  /** A file wanted by name, or loaded by one the reading wants (as far as the files read so far tell). */
  private preferred(path: string): boolean {
    return this.wanted.has(path) || this.wantedBundled.has(path) || this.reachable.has(path);
  }

  /** Pool files no command and no earlier reading wants, let go (the latest first) until `size` more bytes fit in the pool. */
  private makeRoom(size: number): void {
    const unwanted = [...this.kept].filter(([path, holder]) => holder.pooled && !this.preferred(path));
    for (let i = unwanted.length - 1; i >= 0 && this.poolBytes + size > POOL_BYTES; i -= 1) {
      const [path] = unwanted[i]!;
      this.release(path);
      this.skipped.delete(path);
      this.notKept(path, { cap: 'module-pool', limit: POOL_BYTES });
    }
  }

  /** Why a file was not kept, the first cap it met (a later entry kept in full is read, and the cause is not asked). */
  private notKept(path: string, cause: UnreadCause): void {
    if (!this.skipped.has(path) && this.skipped.size < MAX_PATHS) this.skipped.set(path, cause);
  }

  /** A later entry for the same path replaces the earlier one, as extraction does. */
  private release(path: string): void {
    const earlier = this.kept.get(path);
    if (earlier !== undefined && earlier.pooled) this.poolBytes -= earlier.size;
    if (earlier !== undefined && earlier.lent > 0) this.giveBack(earlier.lent);
    this.kept.delete(path);
  }

  private giveBack(bytes: number): void {
    this.lent -= bytes;
    this.budget.give(bytes);
  }

  /**
   * The bytes lent to this archive go back to the process's budget: once its facts are made (the
   * text then lives in the facts, bounded by the evaluations in flight), or when reading stopped.
   * Idempotent.
   */
  close(): void {
    if (this.lent > 0) this.giveBack(this.lent);
    for (const holder of this.kept.values()) holder.lent = 0;
  }

  private hold(path: string, size: number, cap: number, lent: number, pooled: boolean): CodeHolder {
    const holder: CodeHolder = { chunks: [], kept: 0, size, cap, lent, pooled };
    this.kept.set(path, holder);
    return holder;
  }

  /**
   * The files the final commands run and the local modules and files they load or run (breadth first, at most
   * MAX_FACT_FILES), then those of the bundled packages' commands (`bundled`, each run in its folder;
   * at most MAX_BUNDLED_FACT_FILES more), with what could not be read; undefined when there is no command.
   */
  facts(commands: readonly string[], bundled: readonly PlacedCommand[] = []): InstallCode | undefined {
    try {
      return this.read(commands, bundled);
    } finally {
      this.close();
    }
  }

  private read(commands: readonly string[], bundled: readonly PlacedCommand[]): InstallCode | undefined {
    const ownCommands = commands.filter((c) => c.trim() !== '');
    const bundledCommands = bundled.filter((c) => c.command.trim() !== '');
    if (ownCommands.length === 0 && bundledCommands.length === 0) return undefined;
    const out: Reading = { files: [], missing: [], unread: [], unreadCauses: {}, unreadBundled: [], unreadMore: 0, visited: new Set<string>() };
    const files = this.kind === 'load' ? MAX_LOAD_FACT_FILES : MAX_FACT_FILES;
    this.readFrom(ownCommands.flatMap((c) => installTargets(c, '', this.manifests.get(''))), out, { files, chars: FACT_TOTAL_CHARS, wanted: () => this.wantedFiles < MAX_WANTED_FILES, late: this.late, listed: MAX_UNREAD_LISTED });
    this.readFrom(bundledCommands.flatMap((c) => installTargets(c.command, c.dir, this.manifests.get(c.dir))), out, {
      files: MAX_BUNDLED_FACT_FILES,
      chars: BUNDLED_FACT_TOTAL_CHARS,
      wanted: () => this.wantedBundledFiles < MAX_BUNDLED_WANTED_FILES,
      late: this.lateBundled,
      unread: out.unreadBundled,
      listed: MAX_UNREAD_LISTED,
    });
    const { unread, unreadCauses, unreadBundled, unreadMore } = out;
    const read = out.files.map(({ calls, ...file }) => (calls === undefined || calls === 'all' ? file : { ...file, calls: [...calls] }));
    return {
      files: read,
      missing: out.missing,
      unread,
      ...(unread.length === 0 ? {} : { unreadCauses }),
      ...(unreadBundled.length === 0 ? {} : { unreadBundled }),
      ...(unreadMore === 0 ? {} : { unreadMore }),
    };
  }

  /**
   * Read breadth first from `targets`, within `caps` (files and characters read from them, whether
   * more files may still be wanted, where to list files to read again). `caps.unread`: where to
   * list, too, a file a command names that is left unread; `caps.listed`: unread files listed at most.
   *
   * A file a command names runs whole. At install (kind `install`) a module it loads runs its
   * load-time code and the exports the running code calls (install-reach.ts): the modules that
   * code loads are read first, breadth first, with the exports each is called by; those loaded
   * only in code that does not run after all of them (as a load's, below), when the caps leave room.
   * A module read before a later reader is found to call more of it runs more: its calls grow and
   * the modules its grown running code loads are read too.
   */
  private readFrom(
    targets: readonly QueuedTarget[],
    out: Reading,
    caps: { files: number; chars: number; wanted: () => boolean; late: string[]; unread?: string[]; listed: number },
  ): void {
    let count = 0;
    let total = 0;
    let listed = 0;
    let updates = 0;
    let updatedChars = 0;
    const queue: QueuedTarget[] = [...targets];
    /** Modules loaded only in functions the load does not run: read once every module the load runs has been. */
    const lazy: QueuedTarget[] = [];
    const { files, missing, unread, unreadCauses, visited } = out;
    const install = this.kind === 'install';
    /** The exports of modules still to read called so far (by their queued path). */
    const pending = new Map<string, Calls>();
    /** The loaded JavaScript modules read (by their queued path and their path): their entry in `files` and text. */
    const read = new Map<string, { file: ReadFile; decoded: string }>();
    const unreadTarget = (target: QueuedTarget, path: string, cause: UnreadCause): void => {
      if (listed < caps.listed) {
        unread.push(path);
        unreadCauses[path] = cause;
      } else out.unreadMore += 1;
      listed += 1;
      if (target.loaded !== true && (caps.unread?.length ?? 0) < MAX_UNREAD_BUNDLED) caps.unread?.push(path);
    };
    /** What a JavaScript file's running text loads: to read next, with the calls into each, and those loaded only in code that does not run. */
    const follow = (decoded: string, found: string, file: ReadFile, lazily: boolean): void => {
      if (!install) {
        // A load reads first the modules its running code loads, and those loaded only in functions it does not run
        // (a lazy `require` in an exported function) after all of them, so that the caps go to what runs (load-code.ts).
        const running = loadTimeText(decoded);
        if (lazily) lazy.push(...loadedBy(running ?? '', found, visited, true), ...loadedBy(decoded, found, visited, true));
        else if (running === null) queue.push(...loadedBy(decoded, found, visited, false));
        else {
          queue.push(...loadedBy(running, found, visited, false));
          lazy.push(...loadedBy(decoded, found, visited, true));
        }
        return;
      }
      const running = file.calls === undefined ? decoded : runningText(decoded, file.calls);
      const calls = loadedCalls(running, found, file.calls === undefined ? NO_CALLS : file.calls);
      for (const target of loadedBy(running, found, new Set(), lazily)) want({ ...target, calls: calls.get(target.path) ?? 'all' });
      lazy.push(...loadedBy(decoded, found, visited, true));
    };
    /** A module the running code loads, with the exports it calls: queued, or, read already, read for more. */
    const want = (target: QueuedTarget): void => {
      const done = read.get(target.path);
      if (done === undefined) {
        if (visited.has(target.path)) return;
        pending.set(target.path, joinCalls(pending.get(target.path) ?? NO_CALLS, target.calls ?? 'all'));
        (target.lazy === true ? lazy : queue).push(target);
        return;
      }
      const { file, decoded } = done;
      if (file.calls === undefined || !addsCalls(file.calls, target.calls ?? 'all')) return;
      updates += 1;
      updatedChars += decoded.length;
      if (updates > MAX_CALL_UPDATES || updatedChars > MAX_CALL_UPDATE_CHARS) {
        // Past the bound, every loaded module read is judged whole (the conservative reading).
        for (const { file: f } of read.values()) f.calls = undefined;
        return;
      }
      file.calls = joinCalls(file.calls, target.calls ?? 'all');
      if (file.calls === 'all') file.calls = undefined;
      follow(decoded, file.path, file, false);
    };
    /** Lazy modules looked at and not read (each is looked at once). */
    const passed = new Set<string>();
    for (let next = queue.shift() ?? lazy.shift(); next !== undefined; next = queue.shift() ?? lazy.shift()) {
      if (visited.has(next.path)) continue;
      const found = next.candidates.find((candidate) => this.kept.has(candidate) || this.paths.has(candidate));
      if (next.lazy === true) {
        if (passed.has(next.path)) continue;
        passed.add(next.path);
        // Not code the install or the load runs (load-code.ts): read only when it is kept whole, its brackets are followed and
        // the caps leave room for all of it, so that it adds findings and never an unknown; never missed.
        if (found !== undefined && visited.has(found)) continue;
        const holder = found === undefined ? undefined : this.kept.get(found);
        if (found === undefined || holder === undefined || next.language !== 'javascript' || !/\.[cm]?js$/i.test(found) || holder.kept < holder.size || count >= caps.files) continue;
        const decoded = new TextDecoder('utf-8').decode(Buffer.concat(holder.chunks));
        const running = decoded.length <= Math.min(FACT_MODULE_CHARS, caps.chars - total) ? loadTimeText(decoded) : null;
        if (running === null) continue;
        visited.add(next.path);
        visited.add(found);
        total += decoded.length;
        count += 1;
        // At install it is judged by its load-time code alone (install-reach.ts): nothing read calls it.
        const file: ReadFile = { path: found, language: 'javascript', size: holder.size, text: decoded, truncated: false, ...(install ? { calls: NO_CALLS } : {}) };
        files.push(file);
        if (install) {
          read.set(next.path, { file, decoded });
          read.set(found, { file, decoded });
        }
        follow(decoded, found, file, true);
        continue;
      }
      visited.add(next.path);
      // One file named by two spellings (`./packet.js` here, `../packets/packet` there) is read once: a second reading spends the caps again.
      if (found !== undefined && found !== next.path) {
        if (visited.has(found)) {
          const done = read.get(found);
          if (done !== undefined) want({ ...next, path: found, calls: pending.get(next.path) ?? next.calls ?? 'all' });
          continue;
        }
        visited.add(found);
      }
      if (found === undefined) {
        // A loaded module not shipped is built at install or optional (a native addon); a file a
        // command names and the archive lacks makes npm's script fail (or runs what an earlier step made).
        if (next.loaded === true) continue;
        if (this.activeFromStart && !this.pathsOverflow) missing.push(next.path);
        else {
          unreadTarget(next, next.path, this.pathsOverflow ? { cap: 'paths', limit: MAX_PATHS } : { cap: 'not-kept' });
          if (!this.pathsOverflow) caps.late.push(next.path);
        }
        continue;
      }
      // A loaded JSON file is data, and a `.node` addon or a `.wasm` module (`import * as wasm from
      // "./x_bg.wasm"`, wasm-bindgen's output) a binary: none is code a reader judges. So is a package's
      // entry module that is one (a platform package's `main`: rollup.linux-x64-gnu.node).
      if ((next.loaded === true || this.kind === 'load') && /\.(?:json|node|wasm)$/i.test(found)) continue;
      const holder = this.kept.get(found);
      if (holder === undefined || count >= caps.files || total >= caps.chars) {
        const cause: UnreadCause =
          holder === undefined ? (this.skipped.get(found) ?? { cap: 'not-kept' }) : count >= caps.files ? { cap: 'files', limit: caps.files } : { cap: 'characters', limit: caps.chars };
        unreadTarget(next, found, cause);
        // Seen before it was wanted (not past the cap on wanted files or on the facts).
        if (holder === undefined && caps.wanted() && count < caps.files && total < caps.chars) caps.late.push(found);
        continue;
      }
      const decoded = new TextDecoder('utf-8').decode(Buffer.concat(holder.chunks));
      const room = Math.min(next.loaded === true ? FACT_MODULE_CHARS : FACT_TARGET_CHARS, caps.chars - total);
      const text = decoded.length > room ? decoded.slice(0, room) : decoded;
      total += text.length;
      count += 1;
      // A module loaded at install: judged by what runs of it (install-reach.ts); a file a command names runs whole.
      const calls = install && next.loaded === true && next.language === 'javascript' ? joinCalls(pending.get(next.path) ?? NO_CALLS, next.calls ?? 'all') : 'all';
      const file: ReadFile = { path: found, language: next.language, size: holder.size, text, truncated: holder.kept < holder.size || text.length < decoded.length, ...(calls === 'all' ? {} : { calls }) };
      files.push(file);
      pending.delete(next.path);
      if (holder.pooled && caps.late === this.late) this.pooledRead.push(found);
      // A build file's commands run files of the tarball, named as a script names them.
      if (next.language === 'gyp') {
        const buildDir = next.buildDir ?? folderOf(found);
        for (const target of [...gypTargets(found, decoded, buildDir), ...autoIncluded(next)]) queue.push(target.language === 'gyp' ? { ...target, buildDir } : target);
      }
      if (next.language === 'javascript') {
        if (install) {
          read.set(next.path, { file, decoded });
          read.set(found, { file, decoded });
        }
        follow(decoded, found, file, false);
      }
    }
  }
}

/**
 * A file to read: `loaded`, a module a kept file loads (not one a command names); `buildDir`, for a
 * build file, the folder of the binding.gyp that node-gyp loads it with (gyp-commands.ts); `lazy`,
 * a module loaded only in a function the load does not run, or by such a module.
 */
interface QueuedTarget {
  language: CodeLanguage;
  path: string;
  candidates: string[];
  loaded?: true;
  buildDir?: string;
  lazy?: true;
  /** The exports of a loaded module the running code calls (install-reach.ts); absent: all of it may run. */
  calls?: Calls;
}

/**
 * The local modules a JavaScript file's `text` loads (`require('./x')`, `import … from './x.js'`),
 * then the files it runs or loads by a path built from its own folder (`path.join(__dirname, 'x.js')`),
 * those not yet read.
 */
function loadedBy(text: string, from: string, visited: ReadonlySet<string>, lazy: boolean): QueuedTarget[] {
  const out: QueuedTarget[] = [];
  const mark = lazy ? { lazy: true as const } : {};
  for (const candidates of localImports(text, from)) {
    const path = candidates[0]!;
    if (!visited.has(path)) out.push({ language: 'javascript', path, candidates, loaded: true, ...mark });
  }
  for (const target of folderPaths(text, from)) if (!visited.has(target.path)) out.push({ ...target, loaded: true, ...mark });
  return out;
}

/** A file read, with the exports of it that run while it is read (absent: all of it runs). */
type ReadFile = Omit<InstallCode['files'][number], 'calls'> & { calls?: Calls };

/** What the readings of the own and the bundled commands make together. */
interface Reading {
  files: ReadFile[];
  /** Unread files past those listed. */
  unreadMore: number;
  missing: string[];
  unread: string[];
  unreadCauses: Record<string, UnreadCause>;
  unreadBundled: string[];
  visited: Set<string>;
}
