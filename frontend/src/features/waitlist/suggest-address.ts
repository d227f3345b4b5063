import { POPULAR_DOMAINS, POPULAR_TLDS, run } from '@zootools/email-spell-checker';

/** The mail domains of Dutch households, beside the library's list of the world's popular ones. */
const DUTCH_DOMAINS = [
  'casema.nl',
  'hetnet.nl',
  'home.nl',
  'hotmail.nl',
  'kpnmail.nl',
  'kpnplanet.nl',
  'live.nl',
  'outlook.nl',
  'planet.nl',
  'telfort.nl',
  'upcmail.nl',
  'xs4all.nl',
  'ziggo.nl',
  'zeelandnet.nl',
];

const DOMAINS = [...new Set([...POPULAR_DOMAINS, ...DUTCH_DOMAINS])];
const TOP_LEVEL_DOMAINS = [...new Set([...POPULAR_TLDS, 'nl', 'be'])];

/**
 * The address the visitor probably meant, when its domain looks like a slip of a well-known one
 * (`@gmial.com`, `@hotmail.nll`), or null. Only the domain is ever changed: the part before the `@` stays as
 * typed, capitals included. Loaded when the field is first used (it is not in the first view's script).
 */
export function suggestAddress(typed: string): string | null {
  const address = typed.trim();
  const at = address.lastIndexOf('@');
  if (at < 1) return null;
  const suggestion = run({ email: address, domains: DOMAINS, topLevelDomains: TOP_LEVEL_DOMAINS });
  if (!suggestion || suggestion.domain === address.slice(at + 1).toLowerCase()) return null;
  return `${address.slice(0, at + 1)}${suggestion.domain}`;
}
