/**
 * The stand-in for SES's mailbox simulator on the production path: for each simulator mailbox the events
 * SES documents, shaped as EventBridge delivers them.
 */
import { describe, expect, it } from 'vitest';
import { simulatorEvents } from './ses-simulator';

const mail = (to: string) => ({
  from: 'Mandje <hallo@mandje.nl>',
  to,
  messageId: 'req-1@mandje.nl',
  configurationSet: 'MandjeMail',
});

describe('the mailbox simulator', () => {
  const eventsFor = (to: string) => simulatorEvents(mail(to), 'eu-west-1', new Date('2026-05-01T10:00:00Z'));

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
          tags: { 'ses:configuration-set': ['MandjeMail'] },
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
