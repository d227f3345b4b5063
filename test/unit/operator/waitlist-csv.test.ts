import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS, csvCell, waitlistCsv } from '../../../operator/waitlist-csv';

const record = (email: string, createdAt: string, emailAsEntered = email) => ({
  email,
  emailAsEntered,
  language: 'nl',
  createdAt,
  consentVersion: '2026-11-21',
});

describe('csvCell', () => {
  it.each([
    ['=HYPERLINK("http://x")', `"'=HYPERLINK(""http://x"")"`],
    ['+31 6 1234', "'+31 6 1234"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tcmd', "'\tcmd"],
    ['\rcmd', `"'\rcmd"`],
  ])('turns %j, which a spreadsheet would run, into text: %s', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it.each([
    ['ann@example.nl', 'ann@example.nl'],
    ['a,b@x.nl', '"a,b@x.nl"'],
    ['say "hi"@x.nl', '"say ""hi""@x.nl"'],
    ['line\nbreak', '"line\nbreak"'],
    ['a=b@x.nl', 'a=b@x.nl'],
    ['', ''],
  ])('writes %j as the RFC 4180 field %s', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });
});

const HEADER =
  'email,emailAsEntered,language,status,createdAt,consentVersion,confirmedAt,confirmedConsentVersion';

describe('waitlistCsv', () => {
  it('writes a header row, then one CRLF-ended row per record, oldest first, with its status', () => {
    const csv = waitlistCsv([
      { ...record('late@x.nl', '2026-11-21T12:00:00.000Z'), status: 'pending' },
      {
        ...record('early@x.nl', '2026-11-20T08:00:00.000Z', 'Early@X.nl'),
        status: 'confirmed',
        confirmedAt: '2026-11-20T09:00:00.000Z',
        confirmedConsentVersion: '2026-11-22.1',
      },
    ]);

    expect(csv).toBe(
      `${HEADER}\r\n` +
        'early@x.nl,Early@X.nl,nl,confirmed,2026-11-20T08:00:00.000Z,2026-11-21,2026-11-20T09:00:00.000Z,2026-11-22.1\r\n' +
        'late@x.nl,late@x.nl,nl,pending,2026-11-21T12:00:00.000Z,2026-11-21,,\r\n',
    );
  });

  it('names what a person gave and agreed to, in the documented order, and no mail bookkeeping', () => {
    expect(CSV_COLUMNS).toEqual([
      'email',
      'emailAsEntered',
      'language',
      'status',
      'createdAt',
      'consentVersion',
      'confirmedAt',
      'confirmedConsentVersion',
    ]);
  });

  it('calls a record whose mail bounced or who complained by that, whatever its status', () => {
    const rows = waitlistCsv([
      { ...record('a@x.nl', '2026-11-01T08:00:00.000Z'), status: 'confirmed', mailSuppressed: 'complaint' },
      { ...record('b@x.nl', '2026-11-02T08:00:00.000Z'), status: 'pending', mailSuppressed: 'bounce' },
    ]).split('\r\n');

    expect(rows[1]).toContain(',complained,');
    expect(rows[2]).toContain(',bounced,');
  });

  it('escapes formulas in every column, not only the address', () => {
    const csv = waitlistCsv([
      {
        email: '-x@y.nl',
        emailAsEntered: '@x.nl',
        language: '=1',
        status: 'pending',
        createdAt: '+1',
        consentVersion: '\t',
        confirmedAt: '=2',
        confirmedConsentVersion: '@3',
      },
    ]);

    expect(csv.split('\r\n')[1]).toBe("'-x@y.nl,'@x.nl,'=1,pending,'+1,'\t,'=2,'@3");
  });

  it('writes only the header for an empty waitlist, and an empty cell for a missing field', () => {
    expect(waitlistCsv([])).toBe(`${HEADER}\r\n`);
    expect(waitlistCsv([{ email: 'a@b.nl' }]).split('\r\n')[1]).toBe('a@b.nl,,,pending,,,,');
  });
});
