import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toCsv } from '../../contracts/csv.ts';
import { collectAllPages } from '../../src/components/lists/csv.ts';
import { listQuery, listSearchValidator } from '../../src/components/lists/list-search.ts';

describe('CSV export', () => {
  const columns = [
    { header: 'Name', text: (row: { name: string }) => row.name },
    { header: 'Len', text: (row: { name: string }) => String(row.name.length) },
  ];

  it('quotes every cell, doubles quotes and keeps line breaks, with CRLF line ends', () => {
    expect(toCsv([{ name: 'Okafor, "Home"' }, { name: 'two\nlines' }], columns)).toBe(
      '"Name","Len"\r\n"Okafor, ""Home""","14"\r\n"two\nlines","9"\r\n',
    );
  });

  it('writes a number as a plain number, unquoted, a negative one too, and an empty cell for none', () => {
    const numbers = [{ header: 'W', text: (row: { w: number }) => row.w }];
    expect(toCsv([{ w: -250.5 }, { w: 0.000001 }, { w: 1520 }, { w: Number.NaN }], numbers)).toBe(
      '"W"\r\n-250.5\r\n0.000001\r\n1520\r\n\r\n',
    );
  });

  it('keeps a spreadsheet from running a cell as a formula', () => {
    expect(toCsv([{ name: '=HYPERLINK("x")' }], columns)).toBe(
      '"Name","Len"\r\n"\'=HYPERLINK(""x"")","15"\r\n',
    );
  });

  // A spreadsheet in a locale that splits at `;` (or a paste split at tabs) makes a cell of each
  // part: every part that starts a formula keeps its `'`.
  it.each([
    ['ZZ Semi;=1+1', "ZZ Semi;'=1+1"],
    ['ZZ Comma,+1', "ZZ Comma,'+1"],
    ['ZZ Tab\t@SUM(A1)', "ZZ Tab\t'@SUM(A1)"],
    ['a;-1;=2', "a;'-1;'=2"],
    [';\t=1', ";'\t'=1"],
    ['\t=1', "'\t'=1"],
    ['\r=1', "'\r'=1"],
    ['  =1+1', "'  =1+1"],
    ['Name\n=1+1', "Name\n'=1+1"],
    ['a;  -1', "a;'  -1"],
    ['x\r\n @A1', "x\r'\n' @A1"],
    ['\n+1', "'\n'+1"],
    ['=1;=2', "'=1;'=2"],
    ['Okafor; Home', 'Okafor; Home'],
    ['Unit 5-6; Main Rd', 'Unit 5-6; Main Rd'],
    ['', ''],
  ])('writes %j as the text %j, quoted', (value, text) => {
    const [, row] = toCsv([{ name: value }], columns).split('\r\n');
    expect(row).toBe(`"${text}","${value.length}"`);
  });

  it('leaves no formula start at the beginning of a cell, of a line or of a part after a separator', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom('=', '+', '-', '@', '\t', '\r', '\n', ';', ',', '"', 'a', ' ', '1'),
        }),
        (value) => {
          const csv = toCsv([{ name: value }], [columns[0] as (typeof columns)[0]]);
          const text = csv.slice('"Name"\r\n"'.length, -'"\r\n'.length).replaceAll('""', '"');
          expect(text).not.toMatch(/(^|[;,\t\r\n])(\s*[=+\-@]|[\t\r])/);
          expect(text.replaceAll("'", '')).toBe(value);
        },
      ),
    );
  });

  it('collects every page of the current filter', async () => {
    const rows = Array.from({ length: 230 }, (_, i) => i);
    const pages: number[] = [];
    const all = await collectAllPages(async (page, size) => {
      pages.push(page);
      return { items: rows.slice(page * size, (page + 1) * size), total: rows.length };
    });
    expect(all).toEqual(rows);
    expect(pages).toEqual([0, 1, 2]);
  });
});

describe('list URL state', () => {
  const validate = listSearchValidator(['name']);

  it('keeps a good page, search and sort', () => {
    expect(validate({ page: '3', q: ' okafor ', sort: '-name' })).toEqual({
      page: 3,
      q: 'okafor',
      sort: '-name',
    });
  });

  it('turns a bad page into 0 and drops an unknown sort and a blank search', () => {
    expect(validate({ page: '-1', q: '  ', sort: 'password' })).toEqual({ page: 0 });
    expect(validate({ page: 'abc' })).toEqual({ page: 0 });
    expect(validate({ page: 1.5 })).toEqual({ page: 0 });
  });

  it('asks the server for the sort and the search, never sorting one page itself', () => {
    expect(listQuery({ q: 'okafor', sort: '-name' })).toEqual({ pageSize: 50, q: 'okafor', sort: '-name' });
    expect(listQuery({}, 10)).toEqual({ pageSize: 10 });
  });
});
