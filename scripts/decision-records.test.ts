import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every decision record (docs/decisions/NNN-name.md) opens with its number and title, then says
 * whether it holds (Status), when it was taken (Date) and what it replaces (Supersedes), so a
 * newcomer reading one knows at once whether to trust it.
 */
const folder = path.join(import.meta.dirname, '..', 'docs', 'decisions');
const records = fs.readdirSync(folder).filter((name) => /^\d{3}-.+\.md$/.test(name));

describe('decision records', () => {
  it('are numbered once each', () => {
    const numbers = records.map((name) => name.slice(0, 3));
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  for (const name of records) {
    it(`${name} says its number, status, date and what it supersedes`, () => {
      const lines = fs.readFileSync(path.join(folder, name), 'utf8').split('\n').slice(0, 8);
      expect(lines[0]).toMatch(new RegExp(`^# ${name.slice(0, 3)}: \\S`));
      expect(lines.find((l) => l.startsWith('Status: '))).toMatch(/^Status: (accepted|superseded|proposed)/);
      expect(lines.find((l) => l.startsWith('Date: '))).toMatch(/^Date: \d{4}-\d{2}-\d{2}\s*$/);
      expect(lines.find((l) => l.startsWith('Supersedes: '))).toBeDefined();
    });
  }
});
