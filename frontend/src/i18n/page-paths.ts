import { BRAND_NAME } from '#contract/brand';
import { CONFIRM_RESULT_PATH, type ConfirmResultPage } from '#contract/confirmation';
import { LEAVE_RESULT_PATH, type LeaveResultPage } from '#contract/leave';
import { LOCALES, type Locale } from '#contract/locales';
import { WAITLIST_RESULT_PATH, type WaitlistResult } from '#contract/waitlist-api';

/** What follows the feature's name in a result page's id. */
export const resultOf = <Result extends string>(page: `${string}-${Result}`) =>
  page.slice(page.indexOf('-') + 1) as Result;

const prefixed = <Prefix extends string, Result extends string>(
  prefix: Prefix,
  paths: Record<Result, Record<Locale, string>>,
) =>
  Object.fromEntries(Object.entries(paths).map(([result, path]) => [`${prefix}-${result}`, path])) as Record<
    `${Prefix}-${Result}`,
    Record<Locale, string>
  >;

/** Dutch at the root, English under /en/; the result pages' addresses are the API's to give. */
export const PAGE_PATH = {
  home: { nl: '/', en: '/en/' },
  privacy: { nl: '/privacy', en: '/en/privacy' },
  ...prefixed('waitlist', WAITLIST_RESULT_PATH),
  ...prefixed('confirm', CONFIRM_RESULT_PATH),
  ...prefixed('leave', LEAVE_RESULT_PATH),
} as const;

export type AddressedPage = keyof typeof PAGE_PATH;

/** Result pages answer one visitor's form post: never indexed. */
export const isWaitlistResultPage = (page: Page): page is `waitlist-${WaitlistResult}` =>
  page.startsWith('waitlist-');
export const isConfirmResultPage = (page: Page): page is `confirm-${ConfirmResultPage}` =>
  page.startsWith('confirm-');
export const isLeaveResultPage = (page: Page): page is `leave-${LeaveResultPage}` =>
  page.startsWith('leave-');

/** The confirmation and leave pages are served by the API at a mail's link, so have no address of their own. */
export type Page = AddressedPage | 'confirm' | 'leave' | 'not-found';

export const isPage = (value: unknown): value is Page =>
  typeof value === 'string' && (['not-found', 'confirm', 'leave'].includes(value) || hasAddress(value));

export const hasAddress = (page: string): page is AddressedPage => Object.hasOwn(PAGE_PATH, page);

const bare = (path: string) => path.replace(/\/+$/, '');

/** For the dev server, which serves the same unrendered HTML everywhere; an unknown address shows home. */
export function pageOfPath(pathname: string): AddressedPage {
  const wanted = bare(pathname);
  const pages = Object.keys(PAGE_PATH) as AddressedPage[];
  return pages.find((page) => LOCALES.some((locale) => bare(PAGE_PATH[page][locale]) === wanted)) ?? 'home';
}

// The preview images in frontend/public/; here, free of the site's config, so tests read it.
export const SOCIAL_PREVIEW = {
  width: 1200,
  height: 630,
  path: { nl: '/social-preview.png', en: '/social-preview-en.png' } satisfies Record<Locale, string>,
  alt: (heroTitle: string) => `${BRAND_NAME}: ${heroTitle}`,
} as const;
