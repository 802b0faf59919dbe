/**
 * command-shadowing: whether a package's commands replace a system or toolchain command. npm,
 * yarn and pnpm put `node_modules/.bin` first on PATH for every package.json script, so a
 * dependency whose `bin` (or, without one, a file under `directories.bin`) is named `node`,
 * `git`, `sh` or `tsc` runs instead of that command in every script of the project that
 * installs it (docs/security.md, "Commands a package puts on PATH").
 */
import { defineCheck, type CheckOutcome } from './define.js';
import { listedCommand, lookupName, variantOf } from './lib/path-commands.js';

/** Commands named in the evidence at most. */
const MAX_LISTED = 20;
/** A listed command shipped by a package the list does not name for it. */
export const SHADOWING_SCORE = 20;
/** The same with install scripts, or a command new in this release: the gate fails. */
export const SHADOWING_CAP = 49.9;

type Message = 'none' | 'owned' | 'shadows' | 'shadows-armed' | 'folder-unread' | 'not-recorded';

function phrase(name: string, kind: 'system' | 'toolchain', owners: readonly string[]): string {
  if (kind === 'system') return `${name} (the system's ${name})`;
  return owners.length === 0 ? name : `${name} (the command of ${owners.join(' / ')})`;
}

export default defineCheck({
  id: 'command-shadowing',
  dimension: 'security',
  weight: 2,
  needs: ['registry'],
  optional: ['tarball'],
  title: 'Commands that replace system ones',
  description:
    'Reads the command names an npm package puts into `node_modules/.bin` (npm only): each `bin` key as npm links it (its last path segment), a string `bin` named after the package, and — when `bin` is not set — every file its tarball holds under `directories.bin`; from the registry\'s manifest and the tarball\'s own package.json together, compared lower-cased without a Windows launcher extension. ' +
    'A command named after a system command (a shell, `ls`, `cp`, `rm`, `env`, `sudo`, `git`, `curl`, `python`, `make`, …) or after a toolchain or popular tool command (`node`, `npm`, `npx`, `yarn`, `pnpm`, `tsc`, `eslint`, `jest`, `vite`, …) that the package is not the listed owner of (`typescript` ships `tsc`, `npm` ships `npx`, `corepack` ships `yarn` and `pnpm`) nor a build of that tool (a name carrying a tool command\'s words in order ships it as a drop-in: `esbuild-wasm`, `@rollup/wasm-node`, `@lerna-lite/cli`; never for a system command, the runtime or its package managers) scores ' +
    `${SHADOWING_SCORE} and holds the verdict at CAUTION, naming the command and what it replaces; with install scripts in the same release, or when the command is new in this release, it scores 0 and caps the score at ${SHADOWING_CAP}. ` +
    'No listed command, or only owned ones, leaves the check out of the report (it never adds points); unknown when `directories.bin` names a folder and the tarball was not read, and for evidence saved before nerq recorded command names.',
  messages: {
    none: 'No command replaces a system or toolchain command',
    owned: 'Its commands {commands} are its own',
    shadows: 'Installs commands that replace {replaces}',
    'shadows-armed': 'Installs commands that replace {replaces}, {why}',
    'not-recorded': 'The evidence was saved before nerq recorded command names',
    'folder-unread': 'directories.bin names {folder}, and the tarball listing that gives its commands was not read',
  },
  evaluate: ({ registry, tarball }): CheckOutcome<Message> => {
    const fromTarball = tarball?.commands;
    if (registry.commands === undefined && fromTarball === undefined) {
      if (!registry.hasBin) return { score: null, messageId: 'none', data: { commands: [] }, notApplicable: true };
      return { score: null, messageId: 'not-recorded', data: {} };
    }
    // npm reads directories.bin from the files: without the listing the commands are not known, not none.
    if (registry.commandsFolder !== undefined && fromTarball === undefined && (registry.commands ?? []).length === 0) {
      return { score: null, messageId: 'folder-unread', data: { folder: registry.commandsFolder } };
    }
    const names = [...new Set([...(registry.commands ?? []), ...(fromTarball ?? [])])].sort();
    const packageName = registry.name.toLowerCase();
    const previous = registry.previous?.commands === undefined ? null : new Set(registry.previous.commands.map(lookupName));
    const shadowing: { name: string; phrase: string; added: boolean }[] = [];
    const owned: string[] = [];
    for (const name of names) {
      const lookup = lookupName(name);
      const listed = listedCommand(lookup);
      if (listed === null) continue;
      if (listed.owners.includes(packageName) || variantOf(lookup, packageName)) {
        owned.push(name);
        continue;
      }
      // New in this release: the version before it did not ship the command (or shipped no command at all).
      const added = registry.previous !== null && (registry.previous.hasBin === false || (previous !== null && !previous.has(lookup)));
      shadowing.push({ name, phrase: phrase(lookup, listed.kind, listed.owners), added });
    }
    if (shadowing.length === 0) {
      return owned.length === 0
        ? { score: null, messageId: 'none', data: { commands: names.slice(0, MAX_LISTED) }, notApplicable: true }
        : { score: null, messageId: 'owned', data: { commands: owned.slice(0, MAX_LISTED) }, notApplicable: true };
    }
    const listedNames = shadowing.slice(0, MAX_LISTED);
    const replaces = `${listedNames.slice(0, 3).map((s) => s.phrase).join(', ')}${shadowing.length > 3 ? ` and ${shadowing.length - 3} more` : ''}`;
    const data = { shadowed: listedNames.map((s) => s.name), count: shadowing.length, replaces };
    const installScripts = Object.keys(registry.installScripts).length > 0 || registry.hasInstallScript === true || Object.keys(tarball?.manifest?.installScripts ?? {}).length > 0;
    const added = shadowing.filter((s) => s.added).map((s) => s.name);
    const hold = `its commands replace ${replaces} in every package.json script of a project that installs it (node_modules/.bin comes first on PATH), and npm i -g replaces the user's own; a release without those command names would lift this`;
    if (!installScripts && added.length === 0) {
      return { score: SHADOWING_SCORE, messageId: 'shadows', data: { ...data, installScripts: false, added: [] }, holdVerdict: hold };
    }
    const why = [installScripts ? 'and runs install scripts' : null, added.length > 0 ? `new in ${registry.version}${registry.previous === null ? '' : ` (${registry.previous.version} did not ship ${added.join(', ')})`}` : null]
      .filter((w): w is string => w !== null)
      .join('; ');
    return {
      score: 0,
      messageId: 'shadows-armed',
      data: { ...data, installScripts, added, why },
      holdVerdict: hold,
      caps: [
        {
          id: 'command-shadowing',
          limit: SHADOWING_CAP,
          reason: `its commands replace ${replaces}, ${why}; pin a version that does not ship them, or remove the dependency`,
          args: { commands: listedNames.map((s) => s.name).join(','), installScripts, added: added.join(',') },
        },
      ],
    };
  },
});
