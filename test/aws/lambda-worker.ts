/**
 * One instance of a Lambda function: a worker thread (with the function's own environment) that imports
 * the bundle as the Node.js runtime does and runs one invocation at a time. Run by Node itself (its type
 * stripping), not through the test runner's transform, so the bundle is imported exactly as built.
 */
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';

const { bundle, functionName } = workerData as { bundle: string; functionName: string };
const { handler } = (await import(pathToFileURL(bundle).href)) as {
  handler: (event: unknown, context: unknown) => Promise<unknown>;
};

parentPort?.on(
  'message',
  async ({ id, event, deadline }: { id: number; event: unknown; deadline: number }) => {
    const getRemainingTimeInMillis = () => Math.max(0, deadline - Date.now());
    try {
      const result = await handler(event, {
        awsRequestId: randomUUID(),
        functionName,
        getRemainingTimeInMillis,
      });
      parentPort?.postMessage({ id, result: result ?? null });
    } catch (error) {
      const { name, message } = error as Error;
      parentPort?.postMessage({ id, error: { name, message } });
    }
  },
);
parentPort?.postMessage({ ready: true });
