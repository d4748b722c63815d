import crypto from 'node:crypto';
import { XMLBuilder } from 'fast-xml-parser';
import { secretDownloadPath, secretSumsPath, versionFeedPath } from '../../../common/api/catalogue';
import type { AccessLevel, Platform, VersionType } from '../../../common/domain';
import type { Locale } from '../../../common/roles';
import { serverT } from '../../i18n';
import { renderMarkdown } from '../../markdown';

/**
 * The Atom feed (RFC 4287) of the versions a licence allows and the `SHA256SUMS` text of a version
 * (docs/decisions/080). Plain functions of what the service read: no database, no request.
 */

/** How many versions a feed lists, newest first: a reader polls for what is new, not for the history. */
export const FEED_LENGTH = 50;

export const ATOM_TYPE = 'application/atom+xml; charset=utf-8';
export const SUMS_TYPE = 'text/plain; charset=utf-8';

interface FeedArtifact {
  platform: Platform;
  fileName: string;
  size: number;
  sha256: string;
}

export interface FeedVersion {
  id: number;
  semVer: string;
  title: string;
  type: VersionType;
  description: string;
  releaseDate: string | null;
  updatedAt: string;
  artifacts: FeedArtifact[];
}

interface FeedInput {
  baseUrl: string;
  locale: Locale;
  licence: { customerId: number; productKey: string; productName: string; accessLevel: AccessLevel };
  secret: string;
  /** newest first */
  versions: FeedVersion[];
  /** the feed's date when it lists no version (the licence's or product's own) */
  emptyUpdated: string;
}

/**
 * Characters XML 1.0 does not allow even escaped (C0 controls but tab and line ends, U+FFFE/U+FFFF,
 * lone surrogates): dropped from what the feed carries, so that no description breaks a reader.
 */
const NOT_XML =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
export const xmlText = (value: string) => value.replace(NOT_XML, '');

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  textNodeName: '#text',
  format: true,
  suppressEmptyNode: true,
  // the builder escapes & < > " ' in text and attribute values; what XML cannot carry at all goes first
  tagValueProcessor: (_name, value) => (typeof value === 'string' ? xmlText(value) : value),
  attributeValueProcessor: (_name, value) => (typeof value === 'string' ? xmlText(value) : value),
});

/** `2026-11-27` as an Atom date (RFC 3339): the day's start in UTC. */
const dayStart = (day: string) => `${day}T00:00:00Z`;

/** The later of two RFC 3339 instants. */
const later = (a: string, b: string) => (Date.parse(a) >= Date.parse(b) ? a : b);

/** An RFC 3339 instant as the feed writes it: UTC, seconds. */
const instant = (value: string) => new Date(value).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The feed's XML, and its ETag (weak: the answer may be compressed; the same text always has the same tag). */
export function buildFeed(input: FeedInput): { xml: string; etag: string } {
  const { baseUrl, locale, licence, secret } = input;
  const t = serverT(locale);
  const productName = licence.productName;
  const entries = input.versions.map((version) => {
    const published = version.releaseDate ? dayStart(version.releaseDate) : instant(version.updatedAt);
    const links: object[] = [
      { '@rel': 'alternate', '@type': 'text/html', '@href': `${baseUrl}/${locale}/accounts/${licence.customerId}` },
    ];
    for (const artifact of version.artifacts) {
      links.push({
        '@rel': 'enclosure',
        '@type': 'application/octet-stream',
        '@length': String(artifact.size),
        '@title': t('feed.file', { fileName: artifact.fileName, platform: t(`platforms.${artifact.platform}`) }),
        '@href': baseUrl + secretDownloadPath(artifact.platform, licence.productKey, version.semVer, secret),
      });
    }
    if (version.artifacts.length > 0) {
      links.push({
        '@rel': 'related',
        '@type': 'text/plain',
        '@title': t('feed.checksums'),
        '@href': baseUrl + secretSumsPath(licence.productKey, version.semVer, secret),
      });
    }
    return {
      id: `${baseUrl}/api/versions/${version.id}`,
      title: {
        '@type': 'text',
        '#text': t('feed.entryTitle', { productName, semVer: version.semVer, title: version.title }),
      },
      published,
      updated: later(instant(version.updatedAt), published),
      category: { '@term': version.type, '@label': t(`feed.types.${version.type}`) },
      link: links,
      content: { '@type': 'html', '#text': renderMarkdown(version.description) },
    };
  });
  const updated = entries.reduce((newest, entry) => later(entry.updated, newest), instant(input.emptyUpdated));
  const feedUrl = baseUrl + versionFeedPath(licence.productKey, secret);
  const document = {
    '?xml': { '@version': '1.0', '@encoding': 'utf-8' },
    feed: {
      '@xmlns': 'http://www.w3.org/2005/Atom',
      '@xml:lang': locale,
      // the same for every licence of the access level, whatever its secret: a reader keeps its entries when the secret changes
      id: `${baseUrl}/api/feeds/${licence.productKey}.atom#${licence.accessLevel}`,
      title: { '@type': 'text', '#text': t('feed.title', { productName }) },
      subtitle: {
        '@type': 'text',
        '#text': t('feed.subtitle', { productName, accessLevel: t(`feed.accessLevels.${licence.accessLevel}`) }),
      },
      updated,
      author: { name: productName },
      link: { '@rel': 'self', '@type': 'application/atom+xml', '@href': feedUrl },
      entry: entries,
    },
  };
  const xml = builder.build(document) as string;
  return { xml, etag: `W/"${crypto.createHash('sha256').update(xml).digest('base64url')}"` };
}

/**
 * A version's `SHA256SUMS`: `<hex>  <file name>` per file, as `sha256sum` writes it (two spaces: the
 * file is read in binary mode). A name with a backslash or a line end (the upload refuses both) would
 * be escaped as GNU coreutils escapes it, with a leading backslash.
 */
export function buildSums(artifacts: Pick<FeedArtifact, 'fileName' | 'sha256'>[]): string {
  return artifacts
    .map(({ fileName, sha256 }) => {
      const escaped = fileName.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
      return `${escaped === fileName ? '' : '\\'}${sha256}  ${escaped}\n`;
    })
    .join('');
}
