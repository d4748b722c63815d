import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '..', '..');
const esm = path.join(root, 'node_modules', '@mantine', 'core', 'esm');
const sheets = path.join(root, 'node_modules', '@mantine', 'core', 'styles');

function sourcesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(file);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

/** The names the application's modules import from `@mantine/core`. */
function namesImportedByTheApp(): Set<string> {
  const names = new Set<string>();
  for (const file of sourcesUnder(path.join(root, 'client'))) {
    const source = fs.readFileSync(file, 'utf8');
    for (const match of source.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'@mantine\/core'/g)) {
      for (const part of match[1].split(',')) {
        const name = part.trim();
        if (name && !name.startsWith('type ')) names.add(name.split(/\s+as\s+/)[0]);
      }
    }
  }
  return names;
}

/** Which file of Mantine's ES modules defines each name its index exports. */
function moduleOfEachExport(): Map<string, string> {
  const index = fs.readFileSync(path.join(esm, 'index.mjs'), 'utf8');
  const files = new Map<string, string>();
  for (const match of index.matchAll(/import \{([^}]*)\} from "(\.[^"]+)"/g)) {
    for (const part of match[1].split(',')) {
      const [name, alias] = part.trim().split(/\s+as\s+/);
      files.set((alias ?? name).trim(), path.join(esm, match[2]));
    }
  }
  return files;
}

/**
 * The style sheets a set of Mantine modules needs: each `X.module.mjs` (the class names of a CSS
 * module) that they import, directly or through the modules they import, is `styles/X.css`.
 */
function sheetsNeededBy(modules: string[]): Set<string> {
  const seen = new Set<string>();
  const needed = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const match of fs.readFileSync(file, 'utf8').matchAll(/from "(\.[^"]+\.mjs)"/g)) {
      const imported = path.join(path.dirname(file), match[1]);
      if (imported.endsWith('.module.mjs')) needed.add(path.basename(imported, '.module.mjs'));
      else walk(imported);
    }
  };
  modules.forEach(walk);
  return needed;
}

/** The sheets client/app/mantine-styles.ts imports, in order. */
function sheetsImported(): string[] {
  const source = fs.readFileSync(path.join(__dirname, 'mantine-styles.ts'), 'utf8');
  return [...source.matchAll(/^import '@mantine\/core\/styles\/([^']+)\.css';$/gm)].map((match) => match[1]);
}

describe('the Mantine style sheets the portal loads (decision 053)', () => {
  it('include the sheet of every component the application uses, and of the components those are built on', () => {
    const exports = moduleOfEachExport();
    const used = [...namesImportedByTheApp()].filter((name) => exports.has(name));
    // the notification toasts (@mantine/notifications) are drawn by core's Notification
    const needed = sheetsNeededBy([...used, 'Notification'].map((name) => exports.get(name)!));
    // a component that nothing needs has no sheet: Box, Portal, Transition...
    expect(needed.size).toBeGreaterThan(20);
    const imported = new Set(sheetsImported());
    expect([...needed].filter((sheet) => !imported.has(sheet)).sort()).toEqual([]);
  });

  it("come in the order Mantine's styles.css joins them, so a later sheet overrides an earlier one as there", () => {
    const whole = fs.readFileSync(path.join(root, 'node_modules', '@mantine', 'core', 'styles.css'), 'utf8');
    const positions = sheetsImported().map((sheet) => {
      const start = fs
        .readFileSync(path.join(sheets, `${sheet}.css`), 'utf8')
        .trim()
        .slice(0, 300);
      const position = whole.indexOf(start);
      expect(position, `${sheet}.css is part of styles.css`).toBeGreaterThanOrEqual(0);
      return { sheet, position };
    });
    const sorted = [...positions].sort((a, b) => a.position - b.position);
    expect(positions.map((p) => p.sheet)).toEqual(sorted.map((p) => p.sheet));
  });

  it('start with the global sheets and import only sheets that exist, each once', () => {
    const imported = sheetsImported();
    expect(imported.slice(0, 3)).toEqual(['baseline', 'default-css-variables', 'global']);
    expect(new Set(imported).size).toBe(imported.length);
    for (const sheet of imported) expect(fs.existsSync(path.join(sheets, `${sheet}.css`)), sheet).toBe(true);
  });
});
