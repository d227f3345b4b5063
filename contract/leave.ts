// One-click leaving (GDPR art. 7(3), Tw art. 11.7, RFC 8058): every mail's personal link names no address.
import { tokenLink } from './confirmation';
import { type Locale, resultPaths } from './locales';

export const LEAVE_PATH = '/api/leave';
export const LEAVE_REQUEST_PATH = '/api/leave-request';

export { TOKEN_PARAMETER as LEAVE_TOKEN_PARAMETER } from './confirmation';
export const LEAVE_TOKEN_FIELD = 'token';

export const ONE_CLICK_FIELD = 'List-Unsubscribe';
export const ONE_CLICK_VALUE = 'One-Click';

export const LEAVE_TOKEN_PLACEHOLDER = '__leave_token__';
export const leavePageFile = (language: Locale) => `leave.${language}.html`;

export const leaveLink = tokenLink(LEAVE_PATH);

export const LEAVE_RESULT_PATH = resultPaths('leave', ['done', 'requested', 'try-again']);
export type LeaveResultPage = keyof typeof LEAVE_RESULT_PATH;

/** Per mailbox, however spelled, by the privacy page’s form. */
export const LEAVE_MAIL_INTERVAL_MINUTES = 10;
