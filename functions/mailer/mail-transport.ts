import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import type { WaitlistStore } from '../store/store-client';
import { faultClassOf } from '../telemetry/fault-class';

export interface MailSettings {
  store: WaitlistStore;
  /** The mail limit table. */
  limits: WaitlistStore;
  siteUrl: string;
  mailFrom: string;
  contactEmail: string;
  brandName: string;
}

export interface OutgoingMail {
  from: string;
  to: string;
  raw: string;
  /** Printed by the outbox, to try by hand; other links (a leave link lasts as long as its record) never are. */
  confirmUrl?: string;
  kind?: 'confirmation' | 'leave-link' | 'announcement';
  messageId: string;
}

export type MailTransport = { send(mail: OutgoingMail): Promise<void> };

/** The request went out but no answer came back: SES may have accepted the mail. */
export class MailOutcomeUnknown extends Error {
  override name = 'MailOutcomeUnknown';
  constructor(cause: unknown) {
    super('no answer from the mail service: the mail may have gone', { cause });
  }
}

const NEVER_CONNECTED = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'];

export function sesTransport(configurationSetName: string | undefined): MailTransport {
  // One attempt: a throttled send waits for its next turn (mail-sender.ts), and any other failure goes back to
  // its queue; the SDK's own retries would send outside the pace exactly when SES asks to slow down.
  const client = new SESv2Client({ maxAttempts: 1 });
  return {
    async send({ from, to, raw }) {
      const command = new SendEmailCommand({
        FromEmailAddress: from,
        Destination: { ToAddresses: [to] },
        Content: { Raw: { Data: Buffer.from(raw, 'utf8') } },
        ConfigurationSetName: configurationSetName || undefined,
      });
      await client.send(command).catch((error: unknown) => {
        const fault = faultClassOf(error);
        // A connection never made sent nothing: the mail is still owed.
        if (NEVER_CONNECTED.includes(String((error as { code?: unknown }).code))) throw error;
        if (fault !== 'network' && fault !== 'timeout') throw error;
        throw new MailOutcomeUnknown(error);
      });
    },
  };
}
