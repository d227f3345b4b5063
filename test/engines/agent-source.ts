/**
 * The scripts the journeys run in the page (in-page/), bundled once per run into source a driver can send:
 * the agent, which every call installs in the document if it is not there yet, and the init script.
 */
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import type { JourneyAgent } from './in-page/agent';

function bundle(file: string): string {
  const [output] = buildSync({
    entryPoints: [join(import.meta.dirname, 'in-page', file)],
    bundle: true,
    write: false,
    format: 'iife',
    target: 'es2022',
    minify: true,
    logLevel: 'warning',
  }).outputFiles;
  if (!output) throw new Error(`esbuild wrote nothing for in-page/${file}`);
  return output.text;
}

const AGENT = bundle('agent.ts');

/** Runs before each page's own scripts, in every engine. */
export const INIT_SCRIPT = bundle('init-script.ts');

/** A JavaScript expression that calls the agent in the page with JSON arguments, installing it first if needed. */
export function agentCall<Method extends keyof JourneyAgent>(
  method: Method,
  ...args: Parameters<JourneyAgent[Method]>
): string {
  return `(() => {
    if (!globalThis.__journeyAgent) {
      ${AGENT}
    }
    return globalThis.__journeyAgent.${method}(...${JSON.stringify(args)});
  })()`;
}
