/**
 * Runs in every page before the page's own scripts (each driver installs it its own way): marks the moment
 * the page becomes interactive, as the e2e tests do, and records what it logs as an error, which WebKit's
 * driver cannot read from the console. Bundled by agent-source.ts.
 */
import { markWhenInteractive } from '../../e2e/interactive-mark';

const state = window as unknown as { __journeyErrors?: string[] };
const errors: string[] = [];
state.__journeyErrors = errors;
const logError = console.error.bind(console);
console.error = (...parts: unknown[]) => {
  errors.push(parts.map(String).join(' '));
  logError(...parts);
};
window.addEventListener('error', (event) => errors.push(`uncaught: ${event.message}`));
window.addEventListener('unhandledrejection', (event) => errors.push(`unhandled: ${String(event.reason)}`));
markWhenInteractive();
