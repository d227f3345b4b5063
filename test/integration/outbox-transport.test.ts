/**
 * The outbox transport on its own: each mail whole under its Message-ID's name or not at all, a retry
 * replacing its file, a full disk thrown by its OS code, partial files cleared at start; and the mailbox
 * simulator told of mails to SES's simulator addresses only, after they are written, with the events SES
 * would publish. Needs root for the small tmpfs.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type OutgoingMail, outboxTransport } from '../../functions/mailer/mail-transport';
import { simulatorEvents } from '../../local/ses-simulator';

const mounts: string[] = [];
afterEach(() => {
  for (const dir of mounts.splice(0)) execFileSync('umount', ['-l', dir]);
});

const mail = (overrides: Partial<OutgoingMail> = {}): OutgoingMail => ({
  from: 'Mandje <hallo@mandje.nl>',
  to: 'ann@example.nl',
  raw: 'Message-ID: <req-1@mandje.nl>\r\n\r\nHello\r\n',
  confirmUrl: 'http://127.0.0.1:3000/api/confirm?t=x',
  messageId: 'req-1@mandje.nl',
  ...overrides,
});

const quiet = () => {};

describe('the outbox transport', () => {
  it('writes a mail under its Message-ID, and a second send of it replaces the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mandje-outbox-'));
    const transport = outboxTransport(dir, { print: quiet });

    await transport.send(mail());
    await transport.send(mail({ raw: 'Message-ID: <req-1@mandje.nl>\r\n\r\nAgain\r\n' }));

    expect(readdirSync(dir)).toEqual(['req-1@mandje.nl.eml']);
    expect(readFileSync(join(dir, 'req-1@mandje.nl.eml'), 'utf8')).toContain('Again');
  });

  it('throws a full disk as ENOSPC and leaves no file, empty or partial', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mandje-outbox-full-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16k', 'tmpfs', dir]);
    mounts.push(dir);
    const transport = outboxTransport(dir, { print: quiet });

    await expect(transport.send(mail({ raw: 'x'.repeat(64 * 1024) }))).rejects.toMatchObject({
      code: 'ENOSPC',
    });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('clears partial files a stopped process left, and keeps the mails', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mandje-outbox-left-'));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, '.req-2@mandje.nl.eml.4242.abcd.partial'), 'Message-ID: <req-2');
    writeFileSync(join(dir, 'req-1@mandje.nl.eml'), 'a whole mail');

    outboxTransport(dir, { print: quiet });

    expect(readdirSync(dir)).toEqual(['req-1@mandje.nl.eml']);
  });

  it('tells the simulator of a mail to a simulator address once it is written, and of no other mail', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mandje-outbox-sim-'));
    const written: string[][] = [];
    const simulator = vi.fn(() => void written.push(readdirSync(dir)));
    const transport = outboxTransport(dir, { print: quiet, simulator });

    await transport.send(mail());
    await transport.send(mail({ to: 'bounce@simulator.amazonses.com', messageId: 'req-2@mandje.nl' }));

    expect(simulator).toHaveBeenCalledTimes(1);
    expect(simulator).toHaveBeenCalledWith(expect.objectContaining({ to: 'bounce@simulator.amazonses.com' }));
    expect(written[0]).toContain('req-2@mandje.nl.eml');
  });
});

describe('the mailbox simulator', () => {
  const eventsFor = (to: string) => simulatorEvents(mail({ to }), new Date('2026-05-01T10:00:00Z'));

  it.each([
    ['success', ['Delivery']],
    ['bounce', ['Bounce']],
    ['suppressionlist', ['Bounce']],
    ['complaint', ['Delivery', 'Complaint']],
    ['ooto', ['Delivery']],
  ])('reports for %s@ what SES would: %j', (mailbox, expected) => {
    expect(eventsFor(`${mailbox}@simulator.amazonses.com`).map((event) => event.detail.eventType)).toEqual(
      expected,
    );
  });

  it('answers a labelled address as the mailbox before the label, as SES does', () => {
    const [event] = eventsFor('bounce+label1@simulator.amazonses.com');
    expect(event?.detail.bounce?.bouncedRecipients).toEqual([
      { emailAddress: 'bounce+label1@simulator.amazonses.com' },
    ]);
  });

  it('reports nothing for an ordinary address', () => {
    expect(eventsFor('ann@example.nl')).toEqual([]);
  });

  it('publishes a permanent bounce as EventBridge delivers SES events', () => {
    const [event] = eventsFor('bounce@simulator.amazonses.com');
    expect(event).toMatchObject({
      version: '0',
      'detail-type': 'Email Bounced',
      source: 'aws.ses',
      resources: [],
      detail: {
        eventType: 'Bounce',
        mail: {
          messageId: 'req-1@mandje.nl',
          source: 'hallo@mandje.nl',
          destination: ['bounce@simulator.amazonses.com'],
        },
        bounce: {
          bounceType: 'Permanent',
          bounceSubType: 'General',
          bouncedRecipients: [{ emailAddress: 'bounce@simulator.amazonses.com' }],
        },
      },
    });
  });

  it('marks the suppression list bounce as such, and a complaint with its recipient', () => {
    const [suppressed] = eventsFor('suppressionlist@simulator.amazonses.com');
    const [, complaint] = eventsFor('complaint@simulator.amazonses.com');
    expect(suppressed?.detail.bounce).toMatchObject({
      bounceType: 'Permanent',
      bounceSubType: 'OnAccountSuppressionList',
    });
    expect(complaint).toMatchObject({
      'detail-type': 'Email Complaint Received',
      detail: {
        complaint: { complainedRecipients: [{ emailAddress: 'complaint@simulator.amazonses.com' }] },
      },
    });
  });
});
