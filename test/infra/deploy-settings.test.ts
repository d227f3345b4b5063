import { App } from 'aws-cdk-lib';
import { expect, it } from 'vitest';
import { DEFAULT_SITE_CONFIG } from '#contract/site-config';
import { DeploySettingError, deploySettings } from '../../infra/deploy-settings';

const settingsOf = (context: Record<string, string>, env = {}) => deploySettings(new App({ context }), env);
const FROM = { mailFrom: 'hallo@mandje.nl' };
type Refused = [context: Record<string, string>, env: Record<string, string>, message: string];
const certificateArn = 'arn:aws:acm:us-east-1:123456789012:certificate/abc';

it('takes nothing but the site config’s sender and 1,000 API requests a second when no setting is given', () => {
  expect(settingsOf({})).toEqual({
    confirmation: { mailFrom: DEFAULT_SITE_CONFIG.mailFrom },
    operations: {},
    waf: true,
    capacity: { apiRateLimit: 1_000 },
    domain: undefined,
  });
});

const RATE = { apiRateLimit: '500', apiReservedConcurrency: '50' };
it.each<[string, Record<string, string>, object, Record<string, string>?]>([
  [
    'MANDJE_MAIL_FROM',
    {},
    { confirmation: { mailFrom: 'p@mandje.nl' } },
    { MANDJE_MAIL_FROM: 'p@mandje.nl' },
  ],
  [
    '-c mailFrom and the same MANDJE_MAIL_FROM',
    FROM,
    { confirmation: FROM },
    { MANDJE_MAIL_FROM: FROM.mailFrom },
  ],
  [
    'a hosted zone of a parent domain, its final dot dropped',
    { mailFrom: 'hallo@mail.mandje.nl', hostedZoneName: 'mandje.nl.', hostedZoneId: 'Z1' },
    { confirmation: { hostedZone: { name: 'mandje.nl', id: 'Z1' } } },
  ],
  [
    'sandbox recipients, each once',
    { sesSandboxRecipients: 'ann@example.nl, bob@example.nl,ann@example.nl' },
    { confirmation: { sesSandboxRecipients: ['ann@example.nl', 'bob@example.nl'] } },
  ],
  ['an SES send rate', { sesMaxSendRate: '14' }, { confirmation: { sesMaxSendRate: 14 } }],
  [
    'a custom domain',
    { domainNames: 'mandje.nl, www.mandje.nl', certificateArn },
    { domain: { names: ['mandje.nl', 'www.mandje.nl'], certificateArn } },
  ],
  [
    'the alarms’ address and silence',
    { alarmEmail: 'ops@mandje.nl', signupSilenceHours: '6' },
    { operations: { alarmEmail: 'ops@mandje.nl', signupSilenceHours: 6 } },
  ],
  ['waf=false, as an empty setting is not given', { waf: 'false', apiRateLimit: '' }, { waf: false }],
  [
    'a rate with the reservation it keeps busy',
    RATE,
    { capacity: { apiRateLimit: 500, apiReservedConcurrency: 50 } },
  ],
])('takes %s', (_case, context, expected, env = {}) => {
  expect(settingsOf(context, env)).toMatchObject(expected);
});

it.each<Refused>([
  [{ mailFrom: 'hallo@mandje.nl' }, { MANDJE_MAIL_FROM: 'post@mandje.nl' }, 'name two senders'],
  [{ mailFrom: 'Mandje <hallo@mandje.nl>' }, {}, 'plain address'],
  [{ ...FROM, hostedZoneName: 'mandje.nl' }, {}, '-c hostedZoneName and -c hostedZoneId go together'],
  [{ ...FROM, hostedZoneName: 'example.nl', hostedZoneId: 'Z1' }, {}, 'does not hold mandje.nl'],
  [{ ...FROM, sesSandboxRecipients: 'ann@example.nl;bob' }, {}, '"ann@example.nl;bob" is not one'],
  [{ ...FROM, sesMaxSendRate: '0' }, {}, '"0"'],
  [{ domainNames: 'mandje.nl' }, {}, '-c domainNames and -c certificateArn go together'],
  [{ certificateArn }, {}, '-c domainNames and -c certificateArn go together'],
  [{ alarmEmail: 'ops' }, {}, 'plain address'],
  [{ waf: 'off' }, {}, '"off"'],
  ...['0', '25', '1.5', 'six'].map((hours): Refused => [{ signupSilenceHours: hours }, {}, `"${hours}"`]),
  ...['0', '-5', '12.5', 'lots'].map(
    (rate): Refused => [
      { apiRateLimit: rate },
      {},
      `-c apiRateLimit is the API’s requests per second, a whole number of at least 1, not "${rate}"`,
    ],
  ),
  [
    { apiReservedConcurrency: '99' },
    {},
    'is below what -c apiRateLimit=1000 keeps busy (100, at 100 ms a request)',
  ],
  [{ apiReservedConcurrency: 'many' }, {}, '"many"'],
])('refuses %o in one line', (context, env, message) => {
  expect(() => settingsOf(context, env)).toThrow(DeploySettingError);
  expect(() => settingsOf(context, env)).toThrow(message);
  expect(() => settingsOf(context, env)).not.toThrow(/\n/);
});
