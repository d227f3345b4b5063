/** Talks to a running runner's waitlist API, as the page does. */
export async function postJoin(baseUrl: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(new URL('/api/waitlist', baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

/** Runs the tasks with at most `limit` in flight at once. */
export async function withConcurrency<T>(limit: number, tasks: (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await (tasks[index] as () => Promise<T>)();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}
