import { describe, expect, it } from 'vitest';
import { suggestAddress } from '@/features/waitlist/suggest-address';

describe('suggestAddress', () => {
  it.each([
    ['name@gmail.nl', 'name@gmail.com'],
    ['name@Gmail.NL', 'name@gmail.com'],
    ['name@yahoo.con', 'name@yahoo.com'],
    ['name@hotmail.cmo', 'name@hotmail.com'],
    ['name@ziggo.com', 'name@ziggo.nl'],
    ['name@xs4all.com', 'name@xs4all.nl'],
    ['name@kpnmial.com', 'name@kpnmail.nl'],
    ['name@upcmail.com', 'name@upcmail.nl'],
    ['name@hetnet.com', 'name@hetnet.nl'],
    ['name@zigo.nl', 'name@ziggo.nl'],
    ['name@hotmial.com', 'name@hotmail.com'],
    ['name@outlok.com', 'name@outlook.com'],
    ['name@icloud.con', 'name@icloud.com'],
    ['name@gmail.co', 'name@gmail.com'],
    ['name@planet.nll', 'name@planet.nl'],
    ['name@protonmail.nl', 'name@protonmail.com'],
    [' Sanne.deVries@gmial.com ', 'Sanne.deVries@gmail.com'],
  ])('%s: did you mean %s?', (typed, suggested) => {
    expect(suggestAddress(typed)).toBe(suggested);
  });

  it.each([
    // Real providers, each its own: never "corrected" into another.
    ...`gmail.com hotmail.com hotmail.nl outlook.com outlook.nl live.nl live.com icloud.com me.com yahoo.com
      ziggo.nl kpnmail.nl kpnplanet.nl planet.nl xs4all.nl home.nl hetnet.nl upcmail.nl casema.nl zeelandnet.nl
      telfort.nl online.nl quicknet.nl chello.nl gmx.com gmx.net proton.me protonmail.com mail.nl mail.com
      hotmail.be telenet.be`
      .split(/\s+/)
      .map((domain) => `name@${domain}`),
    // Domains not near a provider's: a company's or a family's own.
    'name@voorbeeld.nl',
    'name@mijnbedrijf.nl',
    'name@uu.nl',
    // Not an address (yet).
    'name',
    'name@',
    '@gmail.nl',
  ])('%s: no suggestion', (typed) => {
    expect(suggestAddress(typed)).toBeNull();
  });
});
