import { resolve } from 'node:path';

export const IN_MEMORY = ':memory:';

/** Where the local store keeps its files: DATA_DIR (default .data) as an absolute path, or `:memory:`. */
export function dataDirFromEnvironment(setting = process.env.DATA_DIR ?? '.data'): string {
  return setting === IN_MEMORY ? IN_MEMORY : resolve(setting);
}
