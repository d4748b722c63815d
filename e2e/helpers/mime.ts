/**
 * Just enough RFC 5322 / MIME parsing to read the portal's mails in tests (mailparser does not
 * install here): headers with folding and encoded words, multipart bodies, quoted-printable and
 * base64 transfer encodings.
 */

export interface ParsedMail {
  /** addresses from the To header, lowercased */
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** absolute http(s) links of the text part, then those only the HTML part has */
  links: string[];
}

type Headers = Map<string, string>;

function splitHeadAndBody(raw: string): { head: string; body: string } {
  const match = /\r?\n\r?\n/.exec(raw);
  if (!match) return { head: raw, body: '' };
  return { head: raw.slice(0, match.index), body: raw.slice(match.index + match[0].length) };
}

function parseHeaders(head: string): Headers {
  const headers: Headers = new Map();
  // A line starting with white space continues the previous header (folding).
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  for (const line of unfolded.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
  }
  return headers;
}

/** Splits `type/subtype; a=b; c="d"` into the lowercased type and its parameters. */
function parseContentType(value: string | undefined): { type: string; params: Map<string, string> } {
  const [type = 'text/plain', ...rest] = (value ?? 'text/plain').split(';');
  const params = new Map<string, string>();
  for (const part of rest) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim().toLowerCase();
    const val = part
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    params.set(key, val);
  }
  return { type: type.trim().toLowerCase(), params };
}

function bytesToText(bytes: Uint8Array, charset: string): string {
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

function quotedPrintableBytes(text: string): Uint8Array {
  // `=` at the end of a line is a soft line break: the line goes on without a break.
  const joined = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  const encoder = new TextEncoder();
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...encoder.encode(joined[i]));
    }
  }
  return Uint8Array.from(bytes);
}

export function decodeQuotedPrintable(text: string, charset = 'utf-8'): string {
  return bytesToText(quotedPrintableBytes(text), charset);
}

function decodeTransfer(body: string, encoding: string | undefined, charset: string): string {
  switch ((encoding ?? '7bit').trim().toLowerCase()) {
    case 'quoted-printable':
      return decodeQuotedPrintable(body, charset);
    case 'base64':
      return bytesToText(Buffer.from(body.replace(/\s+/g, ''), 'base64'), charset);
    default:
      return body;
  }
}

/** Decodes RFC 2047 encoded words (`=?UTF-8?Q?...?=`, `=?UTF-8?B?...?=`) in a header value. */
export function decodeEncodedWords(value: string): string {
  // White space between two adjacent encoded words is not part of the text.
  const adjacent = value.replace(/(\?=)\s+(=\?)/g, '$1$2');
  return adjacent.replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_all, charset: string, kind: string, text: string) => {
    if (kind.toUpperCase() === 'B') return bytesToText(Buffer.from(text, 'base64'), charset);
    return decodeQuotedPrintable(text.replace(/_/g, ' '), charset);
  });
}

function addresses(value: string | undefined): string[] {
  if (!value) return [];
  const found = decodeEncodedWords(value).match(/[^\s<>,"]+@[^\s<>,"]+/g) ?? [];
  return found.map((a) => a.toLowerCase());
}

function decodeHtmlEntities(text: string): string {
  return text
    .replace(/&amp;/g, '&')
    .replace(/&#x2F;/gi, '/')
    .replace(/&#x3D;/gi, '=')
    .replace(/&#(\d+);/g, (_all, code: string) => String.fromCharCode(Number(code)));
}

interface Parts {
  text: string[];
  html: string[];
}

function collectParts(raw: string, parts: Parts): void {
  const { head, body } = splitHeadAndBody(raw);
  const headers = parseHeaders(head);
  const { type, params } = parseContentType(headers.get('content-type'));
  if (type.startsWith('multipart/')) {
    const boundary = params.get('boundary');
    if (!boundary) return;
    const delimiter = `--${boundary}`;
    const sections = body.split(delimiter);
    // sections[0] is the preamble; a section starting with "--" is the closing delimiter's tail.
    for (const section of sections.slice(1)) {
      if (section.startsWith('--')) break;
      collectParts(section.replace(/^\r?\n/, ''), parts);
    }
    return;
  }
  const disposition = headers.get('content-disposition') ?? '';
  if (/^\s*attachment/i.test(disposition)) return;
  const decoded = decodeTransfer(body, headers.get('content-transfer-encoding'), params.get('charset') ?? 'utf-8');
  if (type === 'text/plain') parts.text.push(decoded);
  else if (type === 'text/html') parts.html.push(decoded);
}

function findLinks(text: string): string[] {
  const found = text.match(/https?:\/\/[^\s<>"'`)\]]+/g) ?? [];
  return [...new Set(found.map((link) => link.replace(/[.,;:!?]+$/, '')))];
}

export function parseMail(raw: string): ParsedMail {
  const { head } = splitHeadAndBody(raw);
  const headers = parseHeaders(head);
  const parts: Parts = { text: [], html: [] };
  collectParts(raw, parts);
  const text = parts.text.join('\n');
  const html = parts.html.join('\n');
  return {
    to: addresses(headers.get('to')),
    subject: decodeEncodedWords(headers.get('subject') ?? ''),
    text,
    html,
    links: [...new Set([...findLinks(text), ...findLinks(decodeHtmlEntities(html))])],
  };
}
