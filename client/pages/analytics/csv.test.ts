import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from './csv';
import { daysOf, OTHER, pivot } from './series';

describe('toCsv', () => {
  it('quotes cells with commas, quotes or line breaks and neutralises formulas', () => {
    expect(csvCell('Acme, Inc.')).toBe('"Acme, Inc."');
    expect(csvCell('Say "hi"')).toBe('"Say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    for (const formula of ['=1+1', '+33 1', '-2', '@SUM(A1)', '\tx', '\rx']) {
      expect(csvCell(formula).replace(/^"/, '')).toMatch(/^'/);
    }
    expect(csvCell('=HYPERLINK("http://x", "y")')).toBe(`"'=HYPERLINK(""http://x"", ""y"")"`);
    expect(csvCell(-3)).toBe('-3');
    expect(csvCell(null)).toBe('');
    expect(toCsv(['day', 'downloads'], [['2026-03-01', 2]])).toBe('day,downloads\r\n2026-03-01,2\r\n');
  });
});

describe('pivot', () => {
  it('lays the points out day by series, with zero days, the largest series first and the rest as other', () => {
    const days = daysOf('2026-02-27', '2026-03-02');
    expect(days).toEqual(['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02']);
    const grid = pivot(
      {
        series: [
          { key: 'a', label: 'A', total: 5 },
          { key: 'b', label: 'B', total: 2 },
          { key: 'c', label: 'C', total: 1 },
        ],
        points: [
          { day: '2026-02-28', key: 'a', downloads: 5 },
          { day: '2026-03-01', key: 'b', downloads: 2 },
          { day: '2026-03-01', key: 'c', downloads: 1 },
        ],
      },
      days,
      'Other',
      1,
    );
    expect(grid.columns).toEqual([
      { key: 'a', label: 'A' },
      { key: OTHER, label: 'Other' },
    ]);
    expect(grid.values).toEqual([
      [0, 5, 0, 0],
      [0, 0, 3, 0],
    ]);
    expect(grid.totals).toEqual([0, 5, 3, 0]);
  });
});
