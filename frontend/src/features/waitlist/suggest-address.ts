// The mail domains of Dutch (and Belgian) households, and the big international ones. Each is a real
// provider: typed as it is, it is never "corrected" into another. On a tie the one listed first wins.
const PROVIDERS = [
  ...'gmail.com googlemail.com icloud.com me.com mac.com yahoo.com yahoo.co.uk aol.com msn.com'.split(' '),
  ...'hotmail outlook live'
    .split(' ')
    .flatMap((name) => ['com', 'nl', 'be', 'de', 'fr'].map((top) => `${name}.${top}`)),
  'hotmail.co.uk',
  ...'ziggo kpnmail kpnplanet planet xs4all home hetnet upcmail casema zeelandnet telfort online quicknet chello'
    .split(' ')
    .map((name) => `${name}.nl`),
  ...'tele2.nl solcon.nl caiway.nl mail.nl telenet.be skynet.be'.split(' '),
  ...'gmx.com gmx.net gmx.de web.de mail.com mail.de proton.me protonmail.com protonmail.ch'.split(' '),
];
/** A top-level domain typed for another (`gmail.nl`, `ziggo.com`) counts as one slip, however it is spelled. */
const TOP_LEVEL_DOMAINS = new Set('com net org nl be de fr eu me info'.split(' '));

/** The letters added, dropped, changed or swapped with a neighbour that turn one text into the other. */
function edits(a: string, b: string): number {
  const width = b.length + 1;
  const table: number[] = [];
  const at = (i: number, j: number) => table[i * width + j] ?? 0;
  for (let i = 0; i <= a.length; i++)
    for (let j = 0; j <= b.length; j++) {
      if (i === 0 || j === 0) {
        table.push(i + j);
        continue;
      }
      const ways = [at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1)];
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) ways.push(at(i - 2, j - 2) + 1);
      table.push(Math.min(...ways));
    }
  return at(a.length, b.length);
}

/** `name` before the first dot, `top` after it: `hotmail` and `co.uk`. */
function parts(domain: string) {
  const [name = '', ...top] = domain.split('.');
  return { name, top: top.join('.') };
}

/**
 * The likely address when its domain looks like a slip for a provider's (`@gmial.com`, `@ziggo.com`): at
 * most two slips, and under half the provider's name changed. The part before `@` stays as typed.
 */
export function suggestAddress(typed: string): string | null {
  const address = typed.trim();
  const at = address.lastIndexOf('@');
  const domain = address.slice(at + 1).toLowerCase();
  if (at < 1 || PROVIDERS.includes(domain)) return null;
  const { name, top } = parts(domain);
  let best: { domain: string; slips: number; inName: number } | undefined;
  for (const provider of PROVIDERS) {
    const theirs = parts(provider);
    const inName = edits(name, theirs.name);
    const inTop = top === theirs.top ? 0 : TOP_LEVEL_DOMAINS.has(top) ? 1 : edits(top, theirs.top);
    const slips = inName + inTop;
    // Of two as near, the one whose name was typed right: `gmail.nl` is `gmail.com`, not `mail.nl`.
    const nearer = !best || slips < best.slips || (slips === best.slips && inName < best.inName);
    if (slips <= 2 && inName * 2 < theirs.name.length && nearer) best = { domain: provider, slips, inName };
  }
  return best ? `${address.slice(0, at + 1)}${best.domain}` : null;
}
