import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { DEFAULT_API_RATE_LIMIT } from '#contract/mail-pace';
import { DEFAULT_SITE_CONFIG, readSiteConfig } from '#contract/site-config';
import { DeploySettingError, deploySettings } from '../../infra/deploy-settings';

const settingsOf = (context: Record<string, string>) => deploySettings(new App({ context }));

/** The error the synth stops with, which bin/app.ts prints as it is. */
function failureOf(context: Record<string, string>): DeploySettingError {
  try {
    settingsOf(context);
  } catch (error) {
    if (error instanceof DeploySettingError) return error;
    throw error;
  }
  throw new Error('the settings were accepted');
}

describe('deploy settings from the CDK context', () => {
  it('takes the site config’s sender when neither -c mailFrom nor MANDJE_MAIL_FROM is given', () => {
    expect(settingsOf({}).confirmation).toEqual({ mailFrom: DEFAULT_SITE_CONFIG.mailFrom });
    expect(deploySettings(new App(), { MANDJE_CONTACT_EMAIL: 'post@example.nl' }).confirmation).toEqual({
      mailFrom: readSiteConfig({ MANDJE_CONTACT_EMAIL: 'post@example.nl' }).mailFrom,
    });
  });

  it('takes the sender from MANDJE_MAIL_FROM when -c mailFrom is not given, and refuses two different ones', () => {
    const withSender = (context: Record<string, string>, env: { MANDJE_MAIL_FROM: string }) =>
      deploySettings(new App({ context }), env);
    expect(withSender({}, { MANDJE_MAIL_FROM: 'post@mandje.nl' }).confirmation).toEqual({
      mailFrom: 'post@mandje.nl',
    });
    expect(
      withSender({ mailFrom: 'post@mandje.nl' }, { MANDJE_MAIL_FROM: 'post@mandje.nl' }).confirmation,
    ).toEqual({ mailFrom: 'post@mandje.nl' });
    expect(() => withSender({ mailFrom: 'hallo@mandje.nl' }, { MANDJE_MAIL_FROM: 'post@mandje.nl' })).toThrow(
      /-c mailFrom=hallo@mandje\.nl and MANDJE_MAIL_FROM=post@mandje\.nl name two senders/,
    );
  });

  it('confirms by mail with the sender given', () => {
    expect(settingsOf({ mailFrom: 'hallo@mandje.nl' }).confirmation).toEqual({ mailFrom: 'hallo@mandje.nl' });
  });

  it('refuses a sender that is not a plain address', () => {
    expect(failureOf({ mailFrom: 'Mandje <hallo@mandje.nl>' }).message).toContain('plain address');
    expect(failureOf({ mailFrom: 'hallo' }).message).toContain('plain address');
  });

  it('takes a hosted zone of the sender’s domain or a parent of it, its name without the final dot', () => {
    expect(
      settingsOf({ mailFrom: 'hallo@mail.mandje.nl', hostedZoneName: 'mandje.nl.', hostedZoneId: 'Z123' })
        .confirmation,
    ).toEqual({ mailFrom: 'hallo@mail.mandje.nl', hostedZone: { name: 'mandje.nl', id: 'Z123' } });
  });

  it('refuses a hosted zone name without its ID', () => {
    expect(failureOf({ mailFrom: 'hallo@mandje.nl', hostedZoneName: 'mandje.nl' }).message).toContain(
      'go together',
    );
  });

  it('refuses a hosted zone that does not hold the sender’s domain', () => {
    expect(
      failureOf({ mailFrom: 'hallo@mandje.nl', hostedZoneName: 'example.nl', hostedZoneId: 'Z123' }).message,
    ).toContain('does not hold mandje.nl');
  });

  it('reads SES sandbox recipients as plain addresses, each once', () => {
    expect(
      settingsOf({
        mailFrom: 'hallo@mandje.nl',
        sesSandboxRecipients: 'ann@example.nl, bob@example.nl,ann@example.nl',
      }).confirmation,
    ).toEqual({ mailFrom: 'hallo@mandje.nl', sesSandboxRecipients: ['ann@example.nl', 'bob@example.nl'] });
  });

  it('refuses SES sandbox recipients that are not plain addresses, naming the one', () => {
    const { message } = failureOf({
      mailFrom: 'hallo@mandje.nl',
      sesSandboxRecipients: 'ann@example.nl;bob',
    });
    expect(message).not.toContain('\n');
    expect(message).toContain('"ann@example.nl;bob" is not one');
  });

  it('refuses domain names without a certificate, or a certificate without domain names, in one line', () => {
    const certificateArn = 'arn:aws:acm:us-east-1:123456789012:certificate/abc';
    const halves: Record<string, string>[] = [{ domainNames: 'mandje.nl' }, { certificateArn }];
    for (const context of halves) {
      const { message } = failureOf({ ...context });
      expect(message).not.toContain('\n');
      expect(message).toContain('-c domainNames and -c certificateArn go together');
    }
  });

  it('reads a custom domain as its names and certificate', () => {
    const certificateArn = 'arn:aws:acm:us-east-1:123456789012:certificate/abc';
    expect(settingsOf({ domainNames: 'mandje.nl, www.mandje.nl', certificateArn }).domain).toEqual({
      names: ['mandje.nl', 'www.mandje.nl'],
      certificateArn,
    });
  });

  it('mails the alarms to -c alarmEmail, and refuses what is not a plain address', () => {
    expect(settingsOf({}).operations).toEqual({});
    expect(settingsOf({ alarmEmail: 'ops@mandje.nl' }).operations).toEqual({
      alarmEmail: 'ops@mandje.nl',
    });
    expect(failureOf({ alarmEmail: 'ops' }).message).toContain('plain address');
  });

  it('limits each client at the edge with AWS WAF unless -c waf=false, and refuses anything but true or false', () => {
    expect(settingsOf({}).waf).toBe(true);
    expect(settingsOf({ waf: 'true' }).waf).toBe(true);
    expect(settingsOf({ waf: 'false' }).waf).toBe(false);
    const { message } = failureOf({ waf: 'off' });
    expect(message).not.toContain('\n');
    expect(message).toContain('"off"');
  });

  it('turns the silence alarm on with -c signupSilenceHours, a whole number from 1 to 24', () => {
    expect(settingsOf({ signupSilenceHours: '6' }).operations).toEqual({
      signupSilenceHours: 6,
    });
    for (const hours of ['0', '25', '1.5', 'six'])
      expect(failureOf({ signupSilenceHours: hours }).message).toContain(`"${hours}"`);
  });

  it('sets the API’s rate with -c apiRateLimit, 1,000 a second unless given', () => {
    expect(settingsOf({}).capacity).toEqual({
      apiRateLimit: DEFAULT_API_RATE_LIMIT,
    });
    expect(DEFAULT_API_RATE_LIMIT).toBe(1_000);
    expect(settingsOf({ apiRateLimit: '250' }).capacity).toEqual({
      apiRateLimit: 250,
    });
  });

  it('refuses an API rate that is not a whole number of at least 1, in one line naming it', () => {
    for (const rate of ['0', '-5', '12.5', 'lots']) {
      const { message } = failureOf({ apiRateLimit: rate });
      expect(message).not.toContain('\n');
      expect(message).toContain('-c apiRateLimit');
      expect(message).toContain(`"${rate}"`);
    }
  });

  it('reserves no executions unless -c apiReservedConcurrency is given', () => {
    expect(settingsOf({ apiRateLimit: '500', apiReservedConcurrency: '60' }).capacity).toEqual({
      apiRateLimit: 500,
      apiReservedConcurrency: 60,
    });
  });

  it('refuses a reservation below what the API’s rate keeps busy, saying how much that is', () => {
    // The default 1,000 requests a second at 100 ms each.
    const needed = 100;
    const { message } = failureOf({ apiReservedConcurrency: String(needed - 1) });
    expect(message).not.toContain('\n');
    expect(message).toContain(`(${needed}, at 100 ms a request)`);
    expect(settingsOf({ apiReservedConcurrency: String(needed) }).capacity).toEqual({
      apiRateLimit: DEFAULT_API_RATE_LIMIT,
      apiReservedConcurrency: needed,
    });
    expect(failureOf({ apiReservedConcurrency: 'many' }).message).toContain('"many"');
  });

  it('paces the mailer at -c sesMaxSendRate when given, a positive number of mails a second', () => {
    expect(settingsOf({ mailFrom: 'hallo@mandje.nl', sesMaxSendRate: '14' }).confirmation).toEqual({
      mailFrom: 'hallo@mandje.nl',
      sesMaxSendRate: 14,
    });
    for (const rate of ['0', '-1', 'fast'])
      expect(failureOf({ mailFrom: 'hallo@mandje.nl', sesMaxSendRate: rate }).message).toContain(`"${rate}"`);
  });
});
