import { POPULAR_DOMAINS, POPULAR_TLDS, run } from '@zootools/email-spell-checker';

// Dutch households' mail domains (.nl), beside the library's world-wide list.
const DUTCH_DOMAINS =
  'casema hetnet home hotmail kpnmail kpnplanet live outlook planet telfort upcmail xs4all ziggo zeelandnet';
const DOMAINS = [...new Set([...POPULAR_DOMAINS, ...DUTCH_DOMAINS.split(' ').map((name) => `${name}.nl`)])];
const TOP_LEVEL_DOMAINS = [...new Set([...POPULAR_TLDS, 'nl', 'be'])];

/** The likely address when its domain looks like a slip (`@gmial.com`); the part before `@` stays as typed. */
export function suggestAddress(typed: string): string | null {
  const address = typed.trim();
  const at = address.lastIndexOf('@');
  if (at < 1) return null;
  const suggestion = run({ email: address, domains: DOMAINS, topLevelDomains: TOP_LEVEL_DOMAINS });
  if (!suggestion || suggestion.domain === address.slice(at + 1).toLowerCase()) return null;
  return `${address.slice(0, at + 1)}${suggestion.domain}`;
}
