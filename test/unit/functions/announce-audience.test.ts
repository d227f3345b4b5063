import { describe, expect, it } from 'vitest';
import { announcementStateKey } from '#contract/announcement-keys';
import { LEFT_COUNTER_KEY } from '#contract/waitlist-table';
import { audienceOf } from '../../../functions/announce/audience';

const ID = 'launch';
const record = (overrides: Record<string, unknown> = {}) => ({
  email: 'ann@example.nl',
  language: 'en' as const,
  status: 'confirmed' as const,
  createdAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

describe('who gets the announcement', () => {
  it('a confirmed person who has not had it, in their language', () => {
    expect(audienceOf(record(), ID)).toEqual({ send: 'en' });
    expect(audienceOf(record({ language: 'nl', announcements: new Set(['earlier']) }), ID)).toEqual({
      send: 'nl',
    });
  });

  it.each([
    // Pending, bounced, complained and already sent, counted by the tool: test/integration/announce.test.ts.
    ['pending', { status: undefined }],
    ['already', { announcements: [ID], announcing: ID }],
    ['unknown', { announcing: ID }],
  ])('not someone %s (%o)', (reason, overrides) => {
    expect(audienceOf(record(overrides), ID)).toEqual({ skip: reason });
  });

  it('is sent again to nobody whose send another announcement left unknown', () => {
    expect(audienceOf(record({ announcing: 'other' }), ID)).toEqual({ send: 'en' });
  });

  it('with --resend-unknown owes again a send left unknown before the run, not one under way since', () => {
    const before = '2026-11-26T12:00:00.000Z';
    const stranded = record({ announcing: ID, announcingAt: '2026-11-26T11:59:59.000Z' });
    const underWay = record({ announcing: ID, announcingAt: '2026-11-26T12:00:01.000Z' });

    expect(audienceOf(stranded, ID, before)).toEqual({ send: 'en' });
    expect(audienceOf(underWay, ID, before)).toEqual({ skip: 'unknown' });
    expect(audienceOf(record({ announcing: ID, announcements: new Set([ID]) }), ID, before)).toEqual({
      skip: 'already',
    });
  });

  it.each([
    ['the left counter', { email: LEFT_COUNTER_KEY, createdAt: undefined }],
    ['an announcement’s state', { email: announcementStateKey(ID), createdAt: undefined }],
  ])('leaves out %s: no person', (_what, overrides) => {
    expect(audienceOf(record(overrides), ID)).toBeUndefined();
  });
});
