/** Writes reports to stdout (or the file --output names) in the chosen format (one target: pretty JSON; several: NDJSON). */
import type { Report } from '../report/schema.js';
import { renderJson } from '../render/json.js';
import { renderMarkdown, renderMarkdownMany } from '../render/markdown.js';
import { inertCiCommands, inertCiCommandsInJson } from '../render/ci-log.js';
import { renderTable } from '../render/table.js';
import { exitCodeOf } from '../scoring/gate.js';
import { formatOf, UsageError, type Format, type OutputOptions } from './options.js';
import { writeProblem, writeRegularFile } from './write-file.js';

export interface OutputSettings {
  format: Format;
  color: boolean;
  width: number;
  /** Terminal report: list each check's raw evidence. */
  evidence?: boolean;
  /** Terminal report: the outcome, alerts and gate only. */
  quiet?: boolean;
}

export function renderReports(reports: readonly Report[], settings: OutputSettings): string {
  switch (settings.format) {
    case 'json':
      return reports.length === 1
        ? renderJson(reports[0]!, { pretty: true })
        : reports.map((r) => renderJson(r, { pretty: false })).join('');
    case 'markdown':
      return reports.length === 1 ? renderMarkdown(reports[0]!) : renderMarkdownMany(reports);
    case 'table':
      return reports
        .map((r) => renderTable(r, { color: settings.color, width: settings.width, evidence: settings.evidence === true, quiet: settings.quiet === true }))
        .join('\n');
  }
}

/** Colour only on a TTY, never with NO_COLOR; FORCE_COLOR forces it (0 disables). */
export function colorEnabled(env: NodeJS.ProcessEnv, isTTY: boolean, flag: boolean | undefined): boolean {
  if (flag === false) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return isTTY;
}

/**
 * The report's text to stdout, or to the file `--output` names (written whole, never through a
 * symbolic link or into a FIFO: write-file.ts; a write that fails is exit 2). On stdout, which a CI job logs, no command a runner would act on survives
 * (src/render/ci-log.ts): JSON (`json`, SARIF) keeps the same data, other text a space.
 */
export function emit(text: string, file: string | undefined, json: boolean): void {
  if (file === undefined) {
    process.stdout.write(json ? inertCiCommandsInJson(text) : inertCiCommands(text));
    return;
  }
  try {
    writeRegularFile(file, text);
  } catch (error) {
    throw new UsageError(`cannot write ${JSON.stringify(file)}: ${writeProblem(error)}`);
  }
}

/** Whether the report goes to a terminal (colour, its width): never when written to a file. */
export function toTerminal(options: { output?: string | undefined }): boolean {
  return options.output === undefined && process.stdout.isTTY === true;
}

/** The width a table is laid out for: the terminal's, at most 120 columns; 80 in a file or a pipe. */
export function outputWidth(options: { output?: string | undefined }): number {
  return toTerminal(options) ? Math.min(process.stdout.columns || 80, 120) : 80;
}

/** Print the reports as the options ask; the exit code follows their gates. */
export function writeReports(reports: readonly Report[], options: OutputOptions): 0 | 1 | 3 {
  const format = formatOf(options);
  emit(
    renderReports(reports, {
      format,
      color: colorEnabled(process.env, toTerminal(options), options.color),
      width: outputWidth(options),
      evidence: options.evidence === true,
      quiet: options.quiet === true,
    }),
    options.output,
    format === 'json',
  );
  return exitCodeOf(reports.map((r) => r.gate));
}
