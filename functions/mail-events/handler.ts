import type { EventBridgeEvent } from 'aws-lambda';

/** Placeholder while the handler is written: accepts SES's events and does nothing yet. */
export async function handler(_event: EventBridgeEvent<string, unknown>): Promise<void> {}
