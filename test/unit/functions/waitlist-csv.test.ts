import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS, csvCell, waitlistCsv } from '../../../local/waitlist-csv';

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

describe('waitlistCsv', () => {
  it('writes a header row, then one CRLF-ended row per record, oldest first', () => {
    const csv = waitlistCsv([
      record('late@x.nl', '2026-11-21T12:00:00.000Z'),
      record('early@x.nl', '2026-11-20T08:00:00.000Z', 'Early@X.nl'),
    ]);

    expect(csv).toBe(
      'email,emailAsEntered,language,createdAt,consentVersion\r\n' +
        'early@x.nl,Early@X.nl,nl,2026-11-20T08:00:00.000Z,2026-11-21\r\n' +
        'late@x.nl,late@x.nl,nl,2026-11-21T12:00:00.000Z,2026-11-21\r\n',
    );
  });

  it('names every field of a record in the header, in the documented order', () => {
    expect(CSV_COLUMNS).toEqual(['email', 'emailAsEntered', 'language', 'createdAt', 'consentVersion']);
  });

  it('escapes formulas in every column, not only the address', () => {
    const csv = waitlistCsv([
      { email: '-x@y.nl', emailAsEntered: '@x.nl', language: '=1', createdAt: '+1', consentVersion: '\t' },
    ]);

    expect(csv.split('\r\n')[1]).toBe("'-x@y.nl,'@x.nl,'=1,'+1,'\t");
  });

  it('writes only the header for an empty waitlist, and an empty cell for a missing field', () => {
    expect(waitlistCsv([])).toBe('email,emailAsEntered,language,createdAt,consentVersion\r\n');
    expect(waitlistCsv([{ email: 'a@b.nl' }]).split('\r\n')[1]).toBe('a@b.nl,,,,');
  });
});
