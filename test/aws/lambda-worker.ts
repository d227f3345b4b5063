/**
 * One instance of a Lambda function: a worker thread (with the function's own environment) that imports
 * the bundle as the Node.js runtime does and runs one invocation at a time. Run by Node itself (its type
 * stripping), not through the test runner's transform, so the bundle is imported exactly as built.
 */
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';

interface Invocation {
  id: number;
  event: unknown;
  deadline: number;
}

const { bundle, functionName } = workerData as { bundle: string; functionName: string };
const { handler } = (await import(pathToFileURL(bundle).href)) as {
  handler: (event: unknown, context: unknown) => Promise<unknown>;
};

parentPort?.on('message', async ({ id, event, deadline }: Invocation) => {
  const context = {
    awsRequestId: randomUUID(),
    functionName,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  };
  try {
    parentPort?.postMessage({ id, result: (await handler(event, context)) ?? null });
  } catch (error) {
    parentPort?.postMessage({
      id,
      error: { name: (error as Error).name, message: (error as Error).message },
    });
  }
});
parentPort?.postMessage({ ready: true });
