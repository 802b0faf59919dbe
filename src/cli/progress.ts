/** A spinner on stderr, only when stderr is a terminal and not in CI; silent otherwise. */
import ora from 'ora';

export interface Progress {
  tick(label: string): void;
  stop(): void;
}

export function startProgress(total: number): Progress {
  if (!process.stderr.isTTY || process.env.CI) return { tick() {}, stop() {} };
  let done = 0;
  const spinner = ora({ stream: process.stderr, text: `checking ${total} target${total === 1 ? '' : 's'}…` }).start();
  return {
    tick(label) {
      done += 1;
      spinner.text = `${done}/${total} ${label.slice(0, 60)}`;
    },
    stop() {
      spinner.stop();
    },
  };
}
