/** A spinner on stderr, only when stderr is a terminal and not in CI; silent otherwise. */
import type { Ora } from 'ora';
import { stderrText } from './stderr.js';

export interface Progress {
  tick(label: string): void;
  stop(): void;
}

export function startProgress(total: number): Progress {
  if (!process.stderr.isTTY || process.env.CI) return { tick() {}, stop() {} };
  let done = 0;
  const spinner = lazySpinner(`checking ${total} target${total === 1 ? '' : 's'}…`);
  return {
    tick(label) {
      done += 1;
      spinner.text = `${done}/${total} ${stderrText(label).slice(0, 60)}`;
    },
    stop() {
      spinner.stop();
    },
  };
}

export interface AuditProgress {
  /** One evaluation finished; `failed` when it fails the policy or could not be evaluated. */
  done(failed: boolean): void;
  stop(): void;
}

/** `nerq audit`: done / total, failures so far and an ETA, on a TTY only (nothing in CI). */
export function startAuditProgress(total: number, now: () => number = Date.now): AuditProgress {
  if (!process.stderr.isTTY || process.env.CI || total === 0) return { done() {}, stop() {} };
  const started = now();
  let finished = 0;
  let failures = 0;
  const spinner = lazySpinner(`auditing ${total} package${total === 1 ? '' : 's'}…`);
  return {
    done(failed) {
      finished += 1;
      if (failed) failures += 1;
      const perItem = (now() - started) / finished;
      const eta = Math.ceil((perItem * (total - finished)) / 1000);
      spinner.text = `${finished}/${total} · ${failures} failing · ETA ${eta}s`;
    },
    stop() {
      spinner.stop();
    },
  };
}

/** A spinner that appears once `ora` has loaded (only terminals load it); text set before then is kept. */
function lazySpinner(initial: string): { text: string; stop(): void } {
  let text = initial;
  let stopped = false;
  let spinner: Ora | undefined;
  void import('ora').then(
    ({ default: ora }) => {
      if (!stopped) spinner = ora({ stream: process.stderr, text }).start();
    },
    () => undefined,
  );
  return {
    get text() {
      return text;
    },
    set text(value: string) {
      text = value;
      if (spinner) spinner.text = value;
    },
    stop() {
      stopped = true;
      spinner?.stop();
    },
  };
}
