import { expect, it } from 'vitest';
import { csvCell, waitlistCsv } from '../../../operator/waitlist-csv';

it.each([
  // What a spreadsheet would run, turned into text (each leading character: the CSV's test below).
  ['=HYPERLINK("http://x")', `"'=HYPERLINK(""http://x"")"`],
  ['\rcmd', `"'\rcmd"`],
  // RFC 4180 fields.
  ['a,b@x.nl', '"a,b@x.nl"'],
  ['say "hi"@x.nl', '"say ""hi""@x.nl"'],
  ['line\nbreak', '"line\nbreak"'],
  ['a=b@x.nl', 'a=b@x.nl'],
  ['', ''],
])('writes %j as the cell %s', (value, cell) => {
  expect(csvCell(value)).toBe(cell);
});

it('writes a header of what a person gave and agreed to, then one CRLF row per record, oldest first, with its status, a formula in any column made text', () => {
  const person = { language: 'nl', consentVersion: '2026-11-21' };
  const csv = waitlistCsv([
    { ...person, email: 'late@x.nl', createdAt: '2026-11-21T12:00:00.000Z', status: 'pending' },
    {
      ...person,
      email: 'early@x.nl',
      emailAsEntered: 'Early@X.nl',
      createdAt: '2026-11-20T08:00:00.000Z',
      status: 'confirmed',
      confirmedAt: '2026-11-20T09:00:00.000Z',
      confirmedConsentVersion: '2026-11-22.1',
    },
    { email: 'a@x.nl', createdAt: '2026-11-22', status: 'confirmed', mailSuppressed: 'complaint' },
    { email: 'b@x.nl', createdAt: '2026-11-23', status: 'pending', mailSuppressed: 'bounce' },
    { email: '-x@y.nl', emailAsEntered: '@x.nl', language: '=1', createdAt: '+1', consentVersion: '\t' },
    { email: 'c@x.nl', createdAt: '2026-11-24', confirmedAt: '=2', confirmedConsentVersion: '@3' },
  ]);

  expect(csv).toBe(
    'email,emailAsEntered,language,status,createdAt,consentVersion,confirmedAt,confirmedConsentVersion\r\n' +
      "'-x@y.nl,'@x.nl,'=1,pending,'+1,'\t,,\r\n" +
      'early@x.nl,Early@X.nl,nl,confirmed,2026-11-20T08:00:00.000Z,2026-11-21,2026-11-20T09:00:00.000Z,2026-11-22.1\r\n' +
      'late@x.nl,,nl,pending,2026-11-21T12:00:00.000Z,2026-11-21,,\r\n' +
      'a@x.nl,,,complained,2026-11-22,,,\r\n' +
      'b@x.nl,,,bounced,2026-11-23,,,\r\n' +
      "c@x.nl,,,pending,2026-11-24,,'=2,'@3\r\n",
  );
});
