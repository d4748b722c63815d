import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown';

describe('renderMarkdown', () => {
  it('renders headings, lists, emphasis and code', () => {
    const html = renderMarkdown('# Title\n\n- one\n- **two**\n\n`code`');
    expect(html).toContain('<h1>Title</h1>');
    expect(html).toContain('<li><strong>two</strong></li>');
    expect(html).toContain('<code>code</code>');
  });

  it('shows raw HTML as text', () => {
    const html = renderMarkdown('<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;');
  });

  it('drops javascript:, vbscript: and data: links, keeps http(s), mailto and relative ones', () => {
    for (const bad of [
      'javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      ' javascript:alert(1)',
      'vbscript:x',
      'data:text/html,x',
    ]) {
      expect(renderMarkdown(`[x](${bad})`), bad).not.toContain('href');
    }
    expect(renderMarkdown('[a](https://example.com/a)')).toContain(
      '<a href="https://example.com/a" target="_blank" rel="noopener noreferrer">a</a>',
    );
    expect(renderMarkdown('[m](mailto:a@example.com)')).toContain('href="mailto:a@example.com"');
    expect(renderMarkdown('[r](/en/products)')).toContain('<a href="/en/products">r</a>');
  });
});
