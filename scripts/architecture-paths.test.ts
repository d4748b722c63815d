import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/ARCHITECTURE.md names files and folders in backquotes (`server/policy.ts`, `client/app/`);
 * each must exist, so a rename or a removal that forgets the page fails here instead of leaving it
 * wrong. Only repository paths count: those that start with one of the project's top folders. Globs
 * (`*-repo.ts`) and placeholders (`server/modules/<area>/`) name no one file and are skipped, as are
 * fenced code blocks.
 */
const root = path.join(import.meta.dirname, '..');
const TOP_FOLDERS = ['client', 'common', 'server', 'e2e', 'scripts', 'bench', 'docs'];
const REPOSITORY_PATH = new RegExp(`^(${TOP_FOLDERS.join('|')})/\\S*$`);
const GLOB_OR_PLACEHOLDER = /[*?[\]{}<>…]/;

/** The repository paths written in backquotes in a Markdown text, outside fenced code blocks. */
function repositoryPaths(markdown: string): string[] {
  const prose = markdown.replace(/^```[^\n]*\n[\s\S]*?^```[^\n]*$/gm, '');
  const spans = [...prose.matchAll(/`([^`\n]+)`/g)].map((match) => match[1].trim());
  return [...new Set(spans.filter((span) => REPOSITORY_PATH.test(span) && !GLOB_OR_PLACEHOLDER.test(span)))];
}

describe('docs/ARCHITECTURE.md', () => {
  const paths = repositoryPaths(fs.readFileSync(path.join(root, 'docs', 'ARCHITECTURE.md'), 'utf8'));

  it('names repository paths', () => {
    expect(paths.length).toBeGreaterThan(30);
  });

  it('names only paths that exist', () => {
    expect(paths.filter((name) => !fs.existsSync(path.join(root, name)))).toEqual([]);
  });

  it('reads paths from backquotes, skipping globs, placeholders, commands and code blocks', () => {
    const text = [
      'The rule (`server/plugins/access.ts`) and the area (`client/app/`), not `app.ts` or `dist/`.',
      'Also `server/**/repo.ts`, `server/modules/<area>/`, `node dist-server/server/main.js`, `docs/a.md --x`.',
      '```ts',
      "import { x } from 'server/in-a-code-block.ts';",
      '`server/quoted-in-a-code-block.ts`',
      '```',
      'Again `server/plugins/access.ts`.',
    ].join('\n');
    expect(repositoryPaths(text)).toEqual(['server/plugins/access.ts', 'client/app/']);
  });
});
