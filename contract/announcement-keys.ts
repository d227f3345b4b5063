// In the waitlist table under keys no address can be: the operator's state of an announcement, and what
// the mailer did in each pass.
export const announcementStateKey = (id: string) => `#announcement#${id}`;
export const announcementProgressKey = (id: string, pass: number) => `#announcement-progress#${id}#${pass}`;
