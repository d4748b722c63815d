import MarkdownIt from 'markdown-it';

/**
 * Markdown to HTML on the server (docs/decisions/040), for version descriptions and legal documents:
 * raw HTML in the source is shown as text, never interpreted, and links and images may only point to
 * http(s), mailto or a relative address (markdown-it's own check already refuses javascript:,
 * vbscript:, file: and most data: URLs; this one is stricter). The client inserts the result as is.
 */
const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false });

const ALLOWED_URL = /^(?:https?:|mailto:|[^:]*$)/i;
markdown.validateLink = (url: string) => ALLOWED_URL.test(url.trim());

// Links leave the portal in a new tab without handing it the opener.
const defaultLinkOpen =
  markdown.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
markdown.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  const href = tokens[idx].attrGet('href') ?? '';
  if (/^(?:https?:|mailto:)/i.test(href)) {
    tokens[idx].attrSet('target', '_blank');
    tokens[idx].attrSet('rel', 'noopener noreferrer');
  }
  return defaultLinkOpen(tokens, idx, options, env, self);
};

export function renderMarkdown(source: string): string {
  return markdown.render(source);
}
