import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * One casing for file names, so a newcomer guesses a path right the first time: a React component
 * (and its test and stylesheet) in PascalCase after the component, every other file and every folder
 * in kebab-case.
 * Migrations keep their frozen `NNN_name.ts` names (they ran under those names); README.md is README.md.
 */
const root = path.join(import.meta.dirname, '..');
const FOLDERS = ['client', 'common', 'server', 'e2e', 'scripts', 'bench'];

const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9-]+)*$/;
const COMPONENT = /^[A-Z][A-Za-z0-9]*(\.[a-z0-9-]+)?(\.test)?\.(tsx|css)$/;
const MIGRATION = /^server\/db\/migrations\/\d{3}_[a-z0-9_]+(\.test)?\.ts$/;

function offending(file: string): boolean {
  const folders = path.dirname(file).split('/');
  if (folders.some((folder) => !KEBAB.test(folder))) return true;
  const name = path.basename(file);
  if (name === 'README.md' || MIGRATION.test(file)) return false;
  return !KEBAB.test(name) && !COMPONENT.test(name);
}

describe('file names', () => {
  const files = execFileSync('git', ['ls-files', ...FOLDERS], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);

  it('are found', () => {
    expect(files.length).toBeGreaterThan(100);
  });

  it('are kebab-case, or PascalCase for a React component', () => {
    expect(files.filter(offending)).toEqual([]);
  });

  it('tell a camelCase or snake_case name from a good one', () => {
    expect(offending('client/api/queryOptions.ts')).toBe(true);
    expect(offending('server/modules/licence_files/keys.ts')).toBe(true);
    expect(offending('client/api/query-options.ts')).toBe(false);
    expect(offending('client/components/DataTable.tsx')).toBe(false);
    expect(offending('server/db/migrations/010_version_order.ts')).toBe(false);
  });
});
