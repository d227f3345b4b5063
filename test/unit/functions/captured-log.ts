import { beforeEach, vi } from 'vitest';

/**
 * Every line a function writes in a test, whichever way it writes it (its metric lines go straight to
 * stdout, anything else through the console), so tests can check what it logs and that nothing leaks.
 * Emptied before each test.
 */
export function capturedLogLines(): string[] {
  const lines: string[] = [];
  beforeEach(() => {
    lines.length = 0;
    const capture = (...args: unknown[]) => {
      lines.push(args.map(String).join(' '));
    };
    for (const method of ['log', 'error', 'warn', 'info', 'debug'] as const)
      vi.spyOn(console, method).mockImplementation(capture);
    for (const stream of [process.stdout, process.stderr])
      vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        return true;
      });
  });
  return lines;
}
