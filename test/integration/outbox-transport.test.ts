/**
 * The outbox transport on its own: each mail whole under its Message-ID's name or not at all, a retry
 * replacing its file, a full disk thrown by its OS code, partial files cleared at start. Needs root for the
 * small tmpfs.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { OutgoingMail } from '../../functions/mailer/mail-transport';
import { outboxTransport } from '../../local/local-mail';

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
});
