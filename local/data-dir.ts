import { resolve } from 'node:path';

/** The DATA_DIR value that keeps the waitlist in memory only. */
export const IN_MEMORY = ':memory:';

/** Where the local store keeps its files: DATA_DIR (default .data) as an absolute path, or `:memory:`. */
export function dataDirFromEnvironment(setting = process.env.DATA_DIR): string {
  const dataDir = setting ?? '.data';
  return dataDir === IN_MEMORY ? IN_MEMORY : resolve(dataDir);
}
