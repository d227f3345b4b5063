/** Days are how the contract states its periods (RETENTION_DAYS, PENDING_DAYS); DynamoDB and CloudWatch count seconds. */
export const SECONDS_PER_DAY = 24 * 60 * 60;
