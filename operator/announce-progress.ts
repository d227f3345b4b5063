/**
 * The send's progress on stderr: on a terminal one bar redrawn in place (sent/total, the rate, the time
 * left); elsewhere (a log, a pipe) a plain line every few seconds.
 */
export interface ProgressBar {
  update(done: number, total: number): void;
  /** Ends the bar's line, so what follows starts on a line of its own. */
  finish(): void;
}

const WIDTH = 24;
const PLAIN_EVERY_MS = 5_000;

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '–';
  const whole = Math.max(0, Math.round(seconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = String(whole % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}

export function progressLine(done: number, total: number, elapsedMs: number): string {
  const rate = elapsedMs > 0 ? (done * 1000) / elapsedMs : 0;
  const left = rate > 0 ? (total - done) / rate : Number.POSITIVE_INFINITY;
  const filled = total > 0 ? Math.min(WIDTH, Math.round((done / total) * WIDTH)) : WIDTH;
  const bar = `${'█'.repeat(filled)}${'░'.repeat(WIDTH - filled)}`;
  return `${bar} ${done}/${total}  ${rate.toFixed(1)}/s  ${formatDuration(left)} left`;
}

export function progressBar(
  stream: NodeJS.WriteStream = process.stderr,
  now: () => number = () => performance.now(),
): ProgressBar {
  const started = now();
  const tty = stream.isTTY === true;
  let lastPlain = Number.NEGATIVE_INFINITY;
  let drawn = false;
  let last: [number, number] | undefined;
  return {
    update(done, total) {
      last = [done, total];
      const line = progressLine(done, total, now() - started);
      if (tty) {
        stream.write(`\r${line}\x1b[K`);
        drawn = true;
      } else if (now() - lastPlain >= PLAIN_EVERY_MS || done === total) {
        lastPlain = now();
        stream.write(`${line}\n`);
      }
    },
    finish() {
      if (tty && drawn) stream.write('\n');
      else if (!tty && last && now() - lastPlain > 0 && last[0] !== last[1])
        stream.write(`${progressLine(last[0], last[1], now() - started)}\n`);
    },
  };
}
