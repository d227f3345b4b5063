import { readFile, rename, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { Locale } from '#contract/locales';
import { visitLanguageOf } from '#contract/visit-counting';

/** Where the runner keeps its visit counts in the data folder; `stats` reads the same file. */
export const VISITS_FILE = 'visits.json';

/** The file's shape: counts per UTC day (YYYY-MM-DD) and language, nothing else. */
export interface VisitCounts {
  days: Record<string, Partial<Record<Locale, number>>>;
}

/** At most one write a second while visits come in. */
const WRITE_INTERVAL_MS = 1_000;

export interface VisitCounter {
  /** Counts the request once its answer is sent, if it was a visit (contract/visit-counting.ts). */
  observe(request: IncomingMessage, response: ServerResponse): void;
  /** The counts so far: the file's at start plus this run's. */
  counts(): VisitCounts;
  /** Writes what is not written yet, and stops writing. */
  close(): Promise<void>;
}

async function readCounts(path: string): Promise<VisitCounts> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { days: {} };
    throw error;
  }
  const parsed: unknown = JSON.parse(text);
  const days = (parsed as { days?: unknown } | null)?.days;
  // Refused rather than overwritten: a hand-edited or damaged file is the operator's to look at.
  if (typeof days !== 'object' || days === null || Array.isArray(days))
    throw new Error(`${path} is not a visits file ({ "days": { "YYYY-MM-DD": { "nl": 1 } } })`);
  return { days: structuredClone(days) as VisitCounts['days'] };
}

/**
 * The runner's visit counter: visits per UTC day and language, in memory, and with a data folder in
 * `<dataDir>/visits.json`, added to what the file held at start. The file is replaced whole (a temporary
 * file renamed over it), so a reader never sees half of it. Without a folder (`:memory:`, or a store
 * endpoint of its own) nothing is written.
 */
export async function createVisitCounter({
  dataDir,
  now = () => new Date(),
}: {
  dataDir: string | undefined;
  now?: () => Date;
}): Promise<VisitCounter> {
  const path = dataDir === undefined ? undefined : join(dataDir, VISITS_FILE);
  const counts = path === undefined ? { days: {} } : await readCounts(path);
  let unwritten = false;
  let timer: NodeJS.Timeout | undefined;
  let lastWrite = 0;
  let writing: Promise<void> = Promise.resolve();
  let closed = false;

  const write = () => {
    timer = undefined;
    if (path === undefined || !unwritten) return writing;
    unwritten = false;
    lastWrite = Date.now();
    const text = `${JSON.stringify(counts, null, 2)}\n`;
    const temporary = `${path}.${process.pid}.tmp`;
    writing = writing
      .then(() => writeFile(temporary, text))
      .then(() => rename(temporary, path))
      .catch((error: unknown) => {
        // Kept in memory: the next visit, or closing, tries again.
        unwritten = true;
        if (closed) throw error;
      });
    return writing;
  };

  const schedule = () => {
    if (path === undefined || timer !== undefined || closed) return;
    const wait = Math.max(0, lastWrite + WRITE_INTERVAL_MS - Date.now());
    timer = setTimeout(write, wait);
    timer.unref();
  };

  return {
    observe(request, response) {
      response.once('finish', () => {
        const language = visitLanguageOf({
          method: request.method,
          path: (request.url ?? '/').split('?', 1)[0] ?? '/',
          status: response.statusCode,
          userAgent: request.headers['user-agent'],
        });
        if (language === undefined || closed) return;
        const day = now().toISOString().slice(0, 10);
        const onDay = counts.days[day] ?? {};
        onDay[language] = (onDay[language] ?? 0) + 1;
        counts.days[day] = onDay;
        unwritten = true;
        schedule();
      });
    },
    counts: () => structuredClone(counts),
    async close() {
      closed = true;
      clearTimeout(timer);
      await write();
    },
  };
}
