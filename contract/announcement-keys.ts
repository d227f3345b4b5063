/**
 * An announcement sent inside AWS is steered by two items in the waitlist table, under keys with no at
 * sign (so no address) and no createdAt (so every scan of people leaves them out):
 * - the state `#announcement#<id>`: the texts, the rate, the pass, its phase and the planner's place in
 *   the table. The operator's tool writes it; the table's stream hands each write with phase `planning`
 *   to the planner, whose own write of its next place starts its next step.
 * - the progress of a pass `#announcement-progress#<id>#<pass>`: what the sender did, added up. A key of
 *   its own, so the sender's counting never wakes the planner.
 */
export const announcementStateKey = (id: string) => `#announcement#${id}`;
export const announcementProgressKey = (id: string, pass: number) => `#announcement-progress#${id}#${pass}`;
/** What the planner's stream filter matches on: the state's key, and its phase. */
export const ANNOUNCEMENT_STATE_PREFIX = '#announcement#';
export const PLANNING_PHASE = 'planning';
