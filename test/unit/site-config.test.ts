import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SITE_CONFIG,
  pageSiteConfig,
  readSiteConfig,
  requireController,
  SiteConfigError,
} from '#contract/site-config';

describe('the site config (MANDJE_* variables)', () => {
  it('is the product’s own with no variable set, the sender being the contact address', () => {
    expect(readSiteConfig({})).toEqual({
      brandName: 'Mandje',
      siteUrl: 'https://mandje.nl',
      contactEmail: 'hallo@mandje.nl',
      mailFrom: 'hallo@mandje.nl',
      socialProfile: {
        network: 'Instagram',
        handle: '@mandje.nl',
        url: 'https://www.instagram.com/mandje.nl/',
      },
      region: 'eu-west-1',
      controller: {},
    });
  });

  it('takes each fact from its variable: the site without a trailing slash, the sender from MANDJE_MAIL_FROM', () => {
    const config = readSiteConfig({
      MANDJE_SITE_URL: 'https://example.nl/',
      MANDJE_CONTACT_EMAIL: 'hi@example.nl',
      MANDJE_MAIL_FROM: 'post@mail.example.nl',
      MANDJE_SOCIAL_NETWORK: 'Mastodon',
      MANDJE_SOCIAL_HANDLE: '@mandje@example.social',
      MANDJE_SOCIAL_URL: 'https://example.social/@mandje',
      MANDJE_CONTROLLER_NAME: 'Mandje B.V.',
      MANDJE_CONTROLLER_ADDRESS: 'Voorbeeldstraat 1, 1234 AB Utrecht',
      MANDJE_CONTROLLER_KVK: '12345678',
      MANDJE_AWS_REGION: 'eu-north-1',
    });
    expect(config).toMatchObject({
      region: 'eu-north-1',
      siteUrl: 'https://example.nl',
      contactEmail: 'hi@example.nl',
      mailFrom: 'post@mail.example.nl',
      socialProfile: {
        network: 'Mastodon',
        handle: '@mandje@example.social',
        url: 'https://example.social/@mandje',
      },
      controller: {
        legalName: 'Mandje B.V.',
        postalAddress: 'Voorbeeldstraat 1, 1234 AB Utrecht',
        kvkNumber: '12345678',
      },
    });
  });

  it('takes an empty or blank variable as unset, as the deploy workflow passes a missing one', () => {
    expect(
      readSiteConfig({ MANDJE_CONTACT_EMAIL: '', MANDJE_SITE_URL: '  ', MANDJE_CONTROLLER_NAME: '' }),
    ).toEqual(DEFAULT_SITE_CONFIG);
  });

  it('stops at invalid values, naming each variable, what it must be and what it was', () => {
    const read = () =>
      readSiteConfig({
        MANDJE_SITE_URL: 'mandje.nl',
        MANDJE_CONTACT_EMAIL: 'Mandje <hallo@mandje.nl>',
        MANDJE_CONTROLLER_KVK: '1234',
        MANDJE_AWS_REGION: 'eu-west-2',
      });
    expect(read).toThrow(SiteConfigError);
    expect(read).toThrow(
      [
        'MANDJE_SITE_URL must be an http(s) address such as https://mandje.nl, not "mandje.nl"',
        'MANDJE_CONTACT_EMAIL must be a plain address such as hallo@mandje.nl, not "Mandje <hallo@mandje.nl>"',
        'MANDJE_CONTROLLER_KVK must be a KvK number: 8 digits, not "1234"',
        'MANDJE_AWS_REGION must be an AWS region in the EU: eu-west-1 (Ireland), eu-central-1 (Frankfurt), eu-west-3 (Paris), eu-north-1 (Stockholm), eu-south-1 (Milan) or eu-south-2 (Spain), not "eu-west-2"',
      ].join('\n'),
    );
  });

  it.each(['us-east-1', 'eu-west-2', 'eu-central-2'])(
    'refuses MANDJE_AWS_REGION=%s, outside the EU',
    (region) => {
      expect(() => readSiteConfig({ MANDJE_AWS_REGION: region })).toThrow(SiteConfigError);
    },
  );

  it('gives the page every fact but the sender, which only the mails need', () => {
    const page = pageSiteConfig(readSiteConfig({ MANDJE_MAIL_FROM: 'post@example.nl' }));
    expect(page).not.toHaveProperty('mailFrom');
    expect(page.contactEmail).toBe('hallo@mandje.nl');
  });
});

describe('the controller a deploy must name (requireController)', () => {
  const NAME = { MANDJE_CONTROLLER_NAME: 'Voorbeeld B.V.' };
  const ADDRESS = { MANDJE_CONTROLLER_ADDRESS: 'Voorbeeldstraat 1, 1234 AB Utrecht' };
  const KVK = { MANDJE_CONTROLLER_KVK: '12345678' };
  const ALL = 'MANDJE_CONTROLLER_NAME, MANDJE_CONTROLLER_ADDRESS, MANDJE_CONTROLLER_KVK';

  it.each([
    ['with none set, as locally', {}, ALL],
    ['without the address', { ...NAME, ...KVK }, 'MANDJE_CONTROLLER_ADDRESS'],
    ['without the name', { ...ADDRESS, ...KVK }, 'MANDJE_CONTROLLER_NAME'],
    ['without the KvK number', { ...NAME, ...ADDRESS }, 'MANDJE_CONTROLLER_KVK'],
  ])('refuses a site %s, naming the settings and the unset ones', (_case, env, unset) => {
    const check = () => requireController(readSiteConfig(env));
    expect(check).toThrow(SiteConfigError);
    expect(check).toThrow(
      `Set MANDJE_CONTROLLER_NAME (the legal name), MANDJE_CONTROLLER_ADDRESS (the postal address, on one line) and MANDJE_CONTROLLER_KVK (the Chamber of Commerce number, 8 digits) to synthesize or deploy: the privacy notice and the footer name who is responsible for the waitlist's data (GDPR art. 13) and its KvK number (Handelsregisterwet). Unset: ${unset}.`,
    );
    expect(() => requireController(readSiteConfig({ ...NAME, ...ADDRESS, ...KVK }))).not.toThrow();
  });
});
