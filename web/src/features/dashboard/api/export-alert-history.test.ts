import { describe, expect, it } from 'vitest';
import { csvRecordCounter, filenameOf } from './export-alert-history.ts';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('counting CSV records as they arrive', () => {
  it('counts line feeds outside quotes, across chunks cut anywhere', () => {
    const csv = '\uFEFFAlert ID,Title\r\n1,"two\r\nlines, and ""quotes"""\r\n2,Überhitzung 🔥\r\n3,"\n"\r\n';
    const whole = bytes(csv);
    expect(csvRecordCounter()(whole)).toBe(4);
    for (let cut = 1; cut < whole.length; cut++) {
      const count = csvRecordCounter();
      count(whole.slice(0, cut));
      expect(count(whole.slice(cut)), `cut at ${cut}`).toBe(4);
    }
  });

  it('takes the file name the server gave', () => {
    expect(filenameOf('attachment; filename="alert-history-acme-2025-03-01.csv"')).toBe('alert-history-acme-2025-03-01.csv');
    expect(filenameOf(null)).toBe('alert-history.csv');
  });
});
