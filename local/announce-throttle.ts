import type { MailTransport } from '../functions/mailer/mail-transport';

/**
 * SES's maximum send rate, on one machine: above `maxPerSecond` mails in any second, a send is refused as
 * SES refuses it (a ThrottlingException), so the announcement's backing off can be seen and tested
 * without an account. Set with SES_MAX_SEND_RATE.
 */
export class SimulatedThrottling extends Error {
  override name = 'ThrottlingException';
  readonly $fault = 'client';
  constructor() {
    super('Maximum sending rate exceeded.');
  }
}

export function sesRateLimited(
  transport: MailTransport,
  maxPerSecond: number,
  now: () => number = () => performance.now(),
): MailTransport {
  const recent: number[] = [];
  return {
    async send(mail) {
      const at = now();
      while (recent.length > 0 && (recent[0] as number) <= at - 1_000) recent.shift();
      if (recent.length >= maxPerSecond) throw new SimulatedThrottling();
      recent.push(at);
      await transport.send(mail);
    },
  };
}
