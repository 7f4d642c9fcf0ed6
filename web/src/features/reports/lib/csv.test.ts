import { describe, expect, it } from 'vitest';
import { csvCell, csvFileName, toCsv } from './csv.ts';

describe('report CSV', () => {
  it('quotes what needs quoting and guards formulas', () => {
    for (const [input, expected] of [
      ['Globex', 'Globex'],
      ['Globex, Inc.', '"Globex, Inc."'],
      ['Say "hi"', '"Say ""hi"""'],
      ['two\nlines', '"two\nlines"'],
      ['=HYPERLINK("http://x")', `"'=HYPERLINK(""http://x"")"`],
      ['+1 555', "'+1 555"],
      ['-2', "'-2"],
      ['@SUM(A1)', "'@SUM(A1)"],
      ['\tcmd', "'\tcmd"],
      ['', ''],
      [null, ''],
      [undefined, ''],
      [0.5, '0.5'],
      [-3, '-3'],
      [Number.NaN, ''],
    ] as const) {
      expect(csvCell(input), String(input)).toBe(expected);
    }
  });

  it('writes a header and rows with CRLF line ends', () => {
    expect(toCsv(['Client', 'Alerts'], [['A, B', 3], ['=1+1', 0]])).toBe('Client,Alerts\r\n"A, B",3\r\n\'=1+1,0\r\n');
  });

  it('makes file names', () => {
    expect(csvFileName('Acme MSP', 'by client', '2025-03-01')).toBe('acme-msp-by-client-2025-03-01.csv');
  });
});
