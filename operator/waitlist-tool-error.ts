/** A problem the operator can fix, said in one sentence. */
export class WaitlistToolError extends Error {
  override name = 'WaitlistToolError';
}
