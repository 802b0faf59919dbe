/**
 * A spinner on stderr, only when stderr is a terminal and not in CI; silent otherwise. It says
 * how far the run is and what it is waiting on (`120/238 evaluated · 3 failing · waiting on
 * the npm registry 32, OSV 1 · GitHub down · ETA 14s`), refreshed a few times a second, cut
 * to the terminal's width (a wrapped spinner line leaves copies of itself behind). It never
 * reads the keyboard: Ctrl-C reaches nerq as a signal (interrupt.ts).
 */
import type { Ora } from 'ora';
import { displayWidth } from '../render/text.js';
import { stderrText } from './stderr.js';

/** What the run is doing right now: requests in flight per service, and the services found down. */
export interface RunActivity {
  inFlight(): ReadonlyMap<string, number>;
  down(): readonly string[];
}

export interface Progress {
  tick(label: string): void;
  stop(): void;
}

const REFRESH_MS = 250;

function enabled(): boolean {
  return process.stderr.isTTY === true && !process.env.CI;
}

/** `waiting on the npm registry 32, OSV 1 · GitHub down`, or '' when idle. */
export function activityText(activity: RunActivity | undefined): string {
  if (activity === undefined) return '';
  const busy = [...activity.inFlight()].filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]);
  const parts: string[] = [];
  if (busy.length > 0) parts.push(`waiting on ${busy.map(([service, n]) => `${service} ${n}`).join(', ')}`);
  const down = [...new Set(activity.down())];
  if (down.length > 0) parts.push(`${down.join(', ')} down`);
  return parts.join(' · ');
}

/** Cut to the terminal's width, less the spinner's two columns. */
function fit(text: string): string {
  const max = Math.max(20, (process.stderr.columns || 80) - 3);
  if (displayWidth(text) <= max) return text;
  let out = '';
  for (const ch of text) {
    if (displayWidth(out + ch) > max - 1) break;
    out += ch;
  }
  return `${out}…`;
}

export function startProgress(total: number, activity?: RunActivity): Progress {
  if (!enabled()) return { tick() {}, stop() {} };
  let done = 0;
  let last = '';
  const text = () => {
    const head = done === 0 ? `checking ${total} target${total === 1 ? '' : 's'}…` : `${done}/${total} ${last}`;
    return fit([head, activityText(activity)].filter((p) => p !== '').join(' · '));
  };
  const spinner = lazySpinner(text);
  return {
    tick(label) {
      done += 1;
      last = stderrText(label).slice(0, 60);
      spinner.refresh();
    },
    stop() {
      spinner.stop();
    },
  };
}

export interface AuditProgress {
  /** One evaluation finished; `failed` when it fails the policy. */
  done(failed: boolean): void;
  stop(): void;
}

/** `nerq audit`: done / total, failures so far, what it waits on and an ETA, on a TTY only (nothing in CI). */
export function startAuditProgress(total: number, activity?: RunActivity, now: () => number = Date.now): AuditProgress {
  if (!enabled() || total === 0) return { done() {}, stop() {} };
  const started = now();
  let finished = 0;
  let failures = 0;
  const text = () => {
    const parts = [finished === 0 ? `auditing ${total} package${total === 1 ? '' : 's'}` : `${finished}/${total} evaluated`];
    if (failures > 0) parts.push(`${failures} failing`);
    const waiting = activityText(activity);
    if (waiting !== '') parts.push(waiting);
    if (finished > 0 && finished < total) {
      const perItem = (now() - started) / finished;
      parts.push(`ETA ${Math.ceil((perItem * (total - finished)) / 1000)}s`);
    }
    return fit(parts.join(' · '));
  };
  const spinner = lazySpinner(text);
  return {
    done(failed) {
      finished += 1;
      if (failed) failures += 1;
      spinner.refresh();
    },
    stop() {
      spinner.stop();
    },
  };
}

/**
 * A spinner that appears once `ora` has loaded (only terminals load it), its text recomputed
 * every REFRESH_MS. `discardStdin: false`: ora would otherwise put the terminal in raw mode to
 * swallow keystrokes, and Ctrl-C would then never become a signal.
 */
function lazySpinner(text: () => string): { refresh(): void; stop(): void } {
  let stopped = false;
  let spinner: Ora | undefined;
  const timer = setInterval(() => {
    if (spinner !== undefined) spinner.text = text();
  }, REFRESH_MS);
  timer.unref();
  void import('ora').then(
    ({ default: ora }) => {
      if (!stopped) spinner = ora({ stream: process.stderr, text: text(), discardStdin: false }).start();
    },
    () => undefined,
  );
  return {
    refresh() {
      if (spinner !== undefined) spinner.text = text();
    },
    stop() {
      stopped = true;
      clearInterval(timer);
      spinner?.stop();
    },
  };
}
