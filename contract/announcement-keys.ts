/**
 * An announcement being sent keeps two kinds of items in the waitlist table, under keys with no at sign
 * (so no address) and no createdAt (so every scan of people leaves them out):
 * - the state `#announcement#<id>`: the texts, the rate and the pass, as the operator's tool wrote them
 *   when it began to queue the pass, who it queued once it had, and why the pass stopped, if it did;
 * - the progress of a pass `#announcement-progress#<id>#<pass>`: what the mailer did, added up.
 */
export const announcementStateKey = (id: string) => `#announcement#${id}`;
export const announcementProgressKey = (id: string, pass: number) => `#announcement-progress#${id}#${pass}`;
