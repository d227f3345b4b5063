/**
 * Runs `send` for each recipient in turn, with up to `concurrency` in flight (the pace itself is the send
 * slots', waited for inside `send`). The first error stops the run: no new send starts, those in flight
 * finish, and the error is returned. So does `signal` (Ctrl-C).
 */
export async function sendEach<T>(
  recipients: AsyncIterable<T> | Iterable<T>,
  send: (recipient: T) => Promise<void>,
  { concurrency, signal }: { concurrency: number; signal?: AbortSignal },
): Promise<{ error?: unknown }> {
  const inFlight = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;
  const stopped = () => failure !== undefined || signal?.aborted === true;
  for await (const recipient of recipients) {
    while (inFlight.size >= concurrency) await Promise.race(inFlight);
    if (stopped()) break;
    const sending = send(recipient).then(
      () => {},
      (error: unknown) => {
        failure ??= { error };
      },
    );
    const tracked = sending.finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
  }
  await Promise.all(inFlight);
  return failure ?? {};
}
