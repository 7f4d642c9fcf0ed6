import { describe, expect, it } from 'vitest';
import { APPROVAL_MSG } from '../../../../../contract/approvals.ts';
import { emptyRow, objectOfRows, parseMetadata, rowsOf, textOf, type MetadataRow } from './metadata.ts';

const row = (key: string, value: string, json = false): MetadataRow => ({ ...emptyRow(), key, value, json });
const problemsOf = (rows: MetadataRow[]) => rows.map((r) => objectOfRows(rows).problems.get(r.id) ?? null);

describe('request metadata as rows and as JSON', () => {
  it('makes an object of the rows: text values, trimmed keys, blank rows skipped, none at all is no metadata', () => {
    expect(objectOfRows([row(' system ', 'CRM'), row('', ''), row('weeks', '2'), row('note', '')]).value).toEqual({ system: 'CRM', weeks: '2', note: '' });
    expect(objectOfRows([emptyRow()]).value).toBeUndefined();
    expect(objectOfRows([]).value).toBeUndefined();
  });

  it('refuses a value without a key, a key used twice, a reserved name and a JSON value that does not parse', () => {
    const rows = [row('a', '1'), row('', 'orphan'), row(' a', '2'), row('__proto__', 'x'), row('n', '{"x":', true), row('ok', 'fine')];
    expect(objectOfRows(rows).value).toBeUndefined();
    expect(problemsOf(rows)).toEqual([
      null,
      { key: APPROVAL_MSG.metadataKeyRequired },
      { key: APPROVAL_MSG.metadataKeyTwice },
      { key: APPROVAL_MSG.metadataKeyReserved },
      { value: APPROVAL_MSG.invalidJson },
      null,
    ]);
  });

  it('goes JSON → rows → JSON without changing a value or its type', () => {
    const value = { system: 'CRM', weeks: 2, approved: true, none: null, tags: ['a', 'b'], client: { name: 'Initech' }, code: '007', flag: 'true' };
    const rows = rowsOf(value);
    expect(rows.map((r) => [r.key, r.value, r.json])).toEqual([
      ['system', 'CRM', false],
      ['weeks', '2', true],
      ['approved', 'true', true],
      ['none', 'null', true],
      ['tags', '["a","b"]', true],
      ['client', '{"name":"Initech"}', true],
      ['code', '007', false],
      ['flag', 'true', false],
    ]);
    const back = objectOfRows(rows).value;
    expect(back).toEqual(value);
    expect(parseMetadata(textOf(back)).value).toEqual(value);
    // A new row is text.
    expect(objectOfRows([...rows, row('amount', '120')]).value).toMatchObject({ weeks: 2, amount: '120' });
  });

  it('shows no metadata as one empty row and as empty text', () => {
    expect(rowsOf(undefined).map((r) => [r.key, r.value, r.json])).toEqual([['', '', false]]);
    expect(textOf(undefined)).toBe('');
    expect(textOf({})).toBe('');
    expect(parseMetadata('  ')).toEqual({ value: undefined, error: null });
    expect(parseMetadata('{"a":')).toEqual({ value: undefined, error: APPROVAL_MSG.invalidJson });
    expect(parseMetadata('[1]')).toEqual({ value: undefined, error: APPROVAL_MSG.metadataNotObject });
  });
});
