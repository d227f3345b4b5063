import { randomBytes } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
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

export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
}

/** The request went out but no answer came back: SES may have accepted the mail. */
export class MailOutcomeUnknown extends Error {
  override name = 'MailOutcomeUnknown';
  constructor(cause: unknown) {
    super('no answer from the mail service: the mail may have gone', { cause });
  }
}

const NEVER_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

export function sesTransport(configurationSetName: string | undefined): MailTransport {
  // One attempt: a throttled send waits for its next turn (mail-sender.ts), and any other failure goes back to
  // its queue; the SDK's own retries would send outside the pace exactly when SES asks to slow down.
  const client = new SESv2Client({ maxAttempts: 1 });
  return {
    async send({ from, to, raw }) {
      try {
        await client.send(
          new SendEmailCommand({
            FromEmailAddress: from,
            Destination: { ToAddresses: [to] },
            Content: { Raw: { Data: Buffer.from(raw, 'utf8') } },
            ConfigurationSetName: configurationSetName || undefined,
          }),
        );
      } catch (error) {
        // A connection never made sent nothing: the mail is still owed.
        if (NEVER_CONNECTED.has(String((error as { code?: unknown }).code))) throw error;
        const fault = faultClassOf(error);
        throw fault === 'network' || fault === 'timeout' ? new MailOutcomeUnknown(error) : error;
      }
    },
  };
}

const PARTIAL = '.partial';

// One machine: each mail an .eml file named by its Message-ID (a repeat replaces it); a line says where.
export function outboxTransport(
  dir: string,
  { print = console.log }: { print?: (line: string) => void } = {},
): MailTransport {
  // Partial files left by a process stopped mid-write.
  try {
    for (const name of readdirSync(dir)) if (name.endsWith(PARTIAL)) rmSync(join(dir, name), { force: true });
  } catch {
    // A folder not there yet, or not writable now: the first send says so.
  }
  return {
    async send(mail) {
      await mkdir(dir, { recursive: true });
      const file = `${mail.messageId.replace(/^<|>$/g, '').replace(/[^A-Za-z0-9._@+-]/g, '_')}.eml`;
      // Whole or not at all: a partial file, synced, renamed, then the folder synced.
      const partial = join(dir, `.${file}.${process.pid}.${randomBytes(4).toString('hex')}${PARTIAL}`);
      try {
        await writeFile(partial, mail.raw, { encoding: 'utf8', flag: 'wx', mode: 0o600, flush: true });
        await rename(partial, join(dir, file));
      } catch (error) {
        // The write's own error is the one to report; a partial file left behind is cleared at the next start.
        await rm(partial, { force: true }).catch(() => undefined);
        throw error;
      }
      const folder = await open(dir, 'r');
      await folder.sync().finally(() => folder.close());
      const where = join(dir, file);
      if (mail.kind === 'leave-link') print(`Leave-link mail in ${where}`);
      else if (mail.kind === 'announcement') print(`Announcement in ${where}`);
      else print(`Confirmation mail in ${where}: ${mail.confirmUrl}`);
    },
  };
}
