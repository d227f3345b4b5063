import { randomBytes } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import type { WaitlistStore } from '../store/store-client';
import { faultClassOf } from '../telemetry/fault-class';

/** What every sender of mail works with: the tables, the site its links lead to, and whom it names. */
export interface MailSettings {
  store: WaitlistStore;
  /** The mail limit table: the per-mailbox limit, the suppressed mailboxes, and the pause. */
  limits: WaitlistStore;
  /** The site's origin: the mails' links point there. */
  siteUrl: string;
  mailFrom: string;
  contactEmail: string;
  brandName: string;
}

/** A composed mail on its way out: the raw RFC 5322 message, its envelope, and the link it carries. */
export interface OutgoingMail {
  from: string;
  to: string;
  raw: string;
  /**
   * What the mail is, and for a confirmation mail its link, which the outbox prints to try it by hand
   * (SES needs only the message). Other mails' links (a leave link works for as long as its record exists)
   * are never printed.
   */
  confirmUrl?: string;
  kind?: 'confirmation' | 'leave-link' | 'announcement';
  messageId: string;
}

export interface MailTransport {
  /** Sends the mail, or throws: the mailer then keeps it owed, or says why it never can be. */
  send(mail: OutgoingMail): Promise<void>;
}

/**
 * The request went out but no answer came back (the connection broke, or timed out): SES may have
 * accepted the mail. Its class is its cause's (network or timeout).
 */
export class MailOutcomeUnknown extends Error {
  override name = 'MailOutcomeUnknown';
  constructor(cause: unknown) {
    super('no answer from the mail service: the mail may have gone', { cause });
  }
}

const NEVER_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * Amazon SES v2, from the identity the stack made, through its configuration set (bounces, complaints and
 * delivery figures are kept there). The message is sent as it was composed.
 */
export function sesTransport(configurationSetName: string | undefined): MailTransport {
  // One attempt: a throttled send waits for its next turn (pace.ts), and any other failure goes back to
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
            ...(configurationSetName ? { ConfigurationSetName: configurationSetName } : {}),
          }),
        );
      } catch (error) {
        const fault = faultClassOf(error);
        // A connection never made (refused, no such host, no route) sent nothing: the mail is still owed.
        const neverSent = NEVER_CONNECTED.has(String((error as { code?: unknown }).code));
        throw (fault === 'network' || fault === 'timeout') && !neverSent
          ? new MailOutcomeUnknown(error)
          : error;
      }
    },
  };
}

/** A mail being written carries this ending until it is whole; a name with it is never a mail. */
const PARTIAL = '.partial';

/** The file a mail is kept in: its Message-ID's characters that are safe in a file name, and .eml. */
export const outboxFileName = (messageId: string) =>
  `${messageId.replace(/^<|>$/g, '').replace(/[^A-Za-z0-9._@+-]/g, '_')}.eml`;

/** Writes `data` to `file` whole, or not at all: to a partial file, synced, renamed, then the folder synced. */
async function writeWhole(dir: string, file: string, data: string): Promise<void> {
  const partial = join(dir, `.${file}.${process.pid}.${randomBytes(4).toString('hex')}${PARTIAL}`);
  try {
    const handle = await open(partial, 'wx', 0o600);
    try {
      await handle.writeFile(data, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(partial, join(dir, file));
  } catch (error) {
    // The write's own error is the one to report; a partial file left behind is cleared at the next start.
    await rm(partial, { force: true }).catch(() => undefined);
    throw error;
  }
  // The rename itself is kept only once the folder is synced.
  const folder = await open(dir, 'r');
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}

/** Partial files left by a process that was stopped mid-write: never mails, so removed. */
function removePartials(dir: string): void {
  try {
    for (const name of readdirSync(dir)) {
      if (name.endsWith(PARTIAL)) rmSync(join(dir, name), { force: true });
    }
  } catch {
    // A folder not there yet, or not writable now: the first send says so.
  }
}

/**
 * One machine, no account: each mail is written to `dir` as an .eml file (any mail program opens it), and
 * one line says where, with the link it carries. Never the address. The file is named after the mail's
 * Message-ID, so a mail sent again (a retry after a crash) replaces its file rather than adding one, and
 * it appears whole or not at all. A write error (a full disk: ENOSPC) is thrown as Node gives it, for the
 * mailer to keep the mail owed.
 */
export function outboxTransport(
  dir: string,
  options: { print?: (line: string) => void } = {},
): MailTransport {
  const { print = console.log } = options;
  removePartials(dir);
  return {
    async send(mail) {
      await mkdir(dir, { recursive: true });
      const file = outboxFileName(mail.messageId);
      await writeWhole(dir, file, mail.raw);
      const where = join(dir, file);
      print(
        mail.kind === 'leave-link'
          ? `Leave-link mail in ${where}`
          : mail.kind === 'announcement'
            ? `Announcement in ${where}`
            : `Confirmation mail in ${where}: ${mail.confirmUrl}`,
      );
    },
  };
}
