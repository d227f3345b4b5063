import { CONFIRM_RESULT_PATH, type ConfirmResultPage } from '#contract/confirmation';
import { LEAVE_RESULT_PATH, type LeaveResultPage } from '#contract/leave';
import { LOCALES, type Locale } from '#contract/locales';
import { WAITLIST_RESULT_PATH, type WaitlistResult } from '#contract/waitlist-api';

/** The page a form post without a script is sent on to, one per result (#contract/waitlist-api). */
export type WaitlistResultPage = `waitlist-${WaitlistResult}`;

export const waitlistResultPage = (result: WaitlistResult): WaitlistResultPage => `waitlist-${result}`;
export const waitlistResultOf = (page: WaitlistResultPage) =>
  page.slice('waitlist-'.length) as WaitlistResult;

/**
 * The page a confirmation's form post without a script is sent on to, one per result page of the contract
 * (#contract/confirmation: each result, and one to try again).
 */
export type ConfirmResultPageId = `confirm-${ConfirmResultPage}`;

export const confirmResultPage = (result: ConfirmResultPage): ConfirmResultPageId => `confirm-${result}`;
export const confirmResultOf = (page: ConfirmResultPageId) =>
  page.slice('confirm-'.length) as ConfirmResultPage;

/**
 * The page a leave form's post without a script is sent on to (#contract/leave): done, a leave link
 * asked for, or try again.
 */
export type LeaveResultPageId = `leave-${LeaveResultPage}`;

export const leaveResultPage = (result: LeaveResultPage): LeaveResultPageId => `leave-${result}`;
export const leaveResultOf = (page: LeaveResultPageId) => page.slice('leave-'.length) as LeaveResultPage;

/**
 * The pages with an address of their own: one per language, Dutch at the root, English under /en/. The
 * result pages' addresses are the API's to give (it redirects to them), so they come from the contract.
 */
export const PAGE_PATH = {
  home: { nl: '/', en: '/en/' },
  privacy: { nl: '/privacy', en: '/en/privacy' },
  'waitlist-joined': WAITLIST_RESULT_PATH.joined,
  'waitlist-already-registered': WAITLIST_RESULT_PATH['already-registered'],
  'waitlist-invalid-email': WAITLIST_RESULT_PATH['invalid-email'],
  'waitlist-try-again': WAITLIST_RESULT_PATH['try-again'],
  'confirm-confirmed': CONFIRM_RESULT_PATH.confirmed,
  'confirm-already-confirmed': CONFIRM_RESULT_PATH['already-confirmed'],
  'confirm-expired': CONFIRM_RESULT_PATH.expired,
  'confirm-invalid': CONFIRM_RESULT_PATH.invalid,
  'confirm-unknown': CONFIRM_RESULT_PATH.unknown,
  'confirm-try-again': CONFIRM_RESULT_PATH['try-again'],
  'leave-done': LEAVE_RESULT_PATH.done,
  'leave-requested': LEAVE_RESULT_PATH.requested,
  'leave-try-again': LEAVE_RESULT_PATH['try-again'],
} as const satisfies Record<
  'home' | 'privacy' | WaitlistResultPage | ConfirmResultPageId | LeaveResultPageId,
  Record<Locale, string>
>;

export type AddressedPage = keyof typeof PAGE_PATH;

/** Whether a page answers one visitor's form post: such pages are never indexed. */
export const isWaitlistResultPage = (page: Page): page is WaitlistResultPage => page.startsWith('waitlist-');
export const isConfirmResultPage = (page: Page): page is ConfirmResultPageId => page.startsWith('confirm-');
export const isLeaveResultPage = (page: Page): page is LeaveResultPageId => page.startsWith('leave-');

/**
 * Every page the build writes. The not-found page answers any address that is not one of the others; the
 * confirmation page and the leave page are served by the API at the link in a mail (#contract/confirmation,
 * #contract/leave), with that link's token in them, so they have no address of their own.
 */
export type Page = AddressedPage | 'confirm' | 'leave' | 'not-found';

/** The pages the API serves with a mail link's token in them, in that link's language. */
export const isTokenPage = (page: Page): page is 'confirm' | 'leave' =>
  page === 'confirm' || page === 'leave';

export function isPage(value: unknown): value is Page {
  return (
    value === 'not-found' ||
    value === 'confirm' ||
    value === 'leave' ||
    (typeof value === 'string' && hasAddress(value))
  );
}

/** Whether a page has an address of its own in each language, to switch between and to follow history. */
export function hasAddress(page: string): page is AddressedPage {
  return Object.hasOwn(PAGE_PATH, page);
}

const withoutTrailingSlash = (path: string) => path.replace(/\/+$/, '');

/**
 * The page an address names. The dev server serves the same unrendered HTML at every address, so there the
 * script reads the page from the address; any unknown address shows home.
 */
export function pageOfPath(pathname: string): AddressedPage {
  const wanted = withoutTrailingSlash(pathname);
  const pages = Object.keys(PAGE_PATH) as AddressedPage[];
  return (
    pages.find((page) =>
      LOCALES.some((locale) => withoutTrailingSlash(PAGE_PATH[page][locale]) === wanted),
    ) ?? 'home'
  );
}

/** Where a language switch leads: the same page in another language; from a page without an address, home. */
export function pathOf(page: Page, locale: Locale): string {
  return PAGE_PATH[hasAddress(page) ? page : 'home'][locale];
}
