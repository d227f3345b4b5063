import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';

/** A composed mail on its way out: the raw RFC 5322 message, its envelope, and the link it carries. */
export interface OutgoingMail {
  from: string;
  to: string;
  raw: string;
  /** Given to the outbox, which shows it; SES needs only the message. */
  confirmUrl: string;
  messageId: string;
}

export interface MailTransport {
  /** Sends the mail, or throws: the mailer then leaves the record for the stream to retry. */
  send(mail: OutgoingMail): Promise<void>;
}

/**
 * Amazon SES v2, from the identity the stack made, through its configuration set (bounces, complaints and
 * delivery figures are kept there). The message is sent as it was composed.
 */
export function sesTransport(configurationSetName: string | undefined): MailTransport {
  const client = new SESv2Client({ maxAttempts: 3 });
  return {
    async send({ from, to, raw }) {
      await client.send(
        new SendEmailCommand({
          FromEmailAddress: from,
          Destination: { ToAddresses: [to] },
          Content: { Raw: { Data: Buffer.from(raw, 'utf8') } },
          ...(configurationSetName ? { ConfigurationSetName: configurationSetName } : {}),
        }),
      );
    },
  };
}

/**
 * One machine, no account: each mail is written to `dir` as an .eml file (any mail program opens it), and
 * one line says where, with the link it carries. Never the address.
 */
export function outboxTransport(dir: string, print: (line: string) => void = console.log): MailTransport {
  return {
    async send({ raw, confirmUrl, messageId }) {
      await mkdir(dir, { recursive: true });
      const file = join(
        dir,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${messageId.split('@')[0]}.eml`,
      );
      await writeFile(file, raw, { mode: 0o600 });
      print(`Confirmation mail in ${file}: ${confirmUrl}`);
    },
  };
}
