import { describe, expect, it } from 'vitest';
import { collectAllPages, toCsv } from '../../src/components/lists/csv.ts';
import { listSearchValidator, sortRows } from '../../src/components/lists/list-search.ts';

describe('CSV export', () => {
  const columns = [
    { header: 'Name', text: (row: { name: string }) => row.name },
    { header: 'Len', text: (row: { name: string }) => String(row.name.length) },
  ];

  it('quotes commas, quotes and line breaks, with CRLF line ends', () => {
    expect(toCsv([{ name: 'Okafor, "Home"' }, { name: 'two\nlines' }], columns)).toBe(
      'Name,Len\r\n"Okafor, ""Home""",14\r\n"two\nlines",9\r\n',
    );
  });

  it('keeps a spreadsheet from running a cell as a formula', () => {
    expect(toCsv([{ name: '=HYPERLINK("x")' }], columns)).toBe('Name,Len\r\n"\'=HYPERLINK(""x"")",15\r\n');
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

  it('sorts a page by a column, numbers inside text as numbers', () => {
    const rows = ['Site 10', 'site 9', 'Site 100'];
    expect(sortRows(rows, 'name', (row) => row)).toEqual(['site 9', 'Site 10', 'Site 100']);
    expect(sortRows(rows, '-name', (row) => row)).toEqual(['Site 100', 'Site 10', 'site 9']);
    expect(sortRows(rows, undefined, (row) => row)).toBe(rows);
  });
});
