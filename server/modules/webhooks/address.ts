import ipaddr from 'ipaddr.js';

/**
 * Which addresses a webhook delivery may connect to (docs/webhooks.md, docs/decisions/066): public
 * unicast ones; private and loopback ones only when WEBHOOKS_ALLOW_PRIVATE is on; link-local ones
 * (where cloud metadata services answer), unspecified, broadcast, multicast and reserved ones never.
 * The ranges come from ipaddr.js. Cloud providers' metadata services that answer on addresses outside
 * those ranges are refused by address, whatever WEBHOOKS_ALLOW_PRIVATE says. An IPv6 address that
 * carries an IPv4 one (mapped, translated, NAT64 well-known prefix, 6to4) is judged by the IPv4
 * address it leads to; forms whose IPv4 address is hidden or depends on the network (Teredo, the
 * local-use NAT64 prefix) and the deprecated IPv4-compatible ones (::a.b.c.d) are refused.
 */

const PUBLIC_V4 = new Set(['unicast', 'as112', 'amt']);
const PRIVATE_V4 = new Set(['private', 'loopback', 'carrierGradeNat']);
const PUBLIC_V6 = new Set(['unicast', 'as112v6', 'amt']);
const PRIVATE_V6 = new Set(['uniqueLocal', 'loopback']);

const DESCRIPTIONS: Record<string, string> = {
  linkLocal: 'a link-local address',
  unspecified: 'an unspecified address',
  multicast: 'a multicast address',
  broadcast: 'a broadcast address',
  private: 'a private address',
  uniqueLocal: 'a private address',
  carrierGradeNat: 'a private (shared) address',
  loopback: 'a loopback address',
};

/**
 * Metadata services on addresses that are not link-local: Azure's WireServer, Alibaba Cloud's
 * metadata, AWS's and Google Cloud's IPv6 metadata (169.254.169.254 and the like are link-local).
 */
const CLOUD_METADATA = ['168.63.129.16/32', '100.100.100.200/32', 'fd00:ec2::254/128', 'fd20:ce::254/128'].map((cidr) =>
  ipaddr.parseCIDR(cidr),
);

const isCloudMetadata = (address: ipaddr.IPv4 | ipaddr.IPv6) =>
  CLOUD_METADATA.some(([network, bits]) => network.kind() === address.kind() && address.match(network, bits));

/** ::a.b.c.d other than :: and ::1 (RFC 4291 deprecated them; nothing public answers there). */
const isIpv4Compatible = (address: ipaddr.IPv6) =>
  address.parts.slice(0, 6).every((part) => part === 0) && address.range() === 'unicast';

/** NAT64's local-use prefix (RFC 8215): where its IPv4 address sits depends on the network's prefix length. */
const LOCAL_USE_NAT64 = ipaddr.parseCIDR('64:ff9b:1::/48');

/** The IPv4 address an IPv6 one carries in its last 32 bits, or in bits 16–48 for 6to4. */
function embeddedV4(address: ipaddr.IPv6, range: string): ipaddr.IPv4 | null {
  const parts = address.parts;
  const word = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff];
  if (range === 'rfc6052' || range === 'rfc6145') return new ipaddr.IPv4(word(parts[6], parts[7]));
  if (range === '6to4') return new ipaddr.IPv4(word(parts[1], parts[2]));
  return null;
}

/**
 * An IPv6 address as the URL parser writes it (the host a delivery connects to), anything else as
 * given. ipaddr.js reads `::a.b.c.d` as if it were `::ffff:a.b.c.d`; the URL parser, like a socket,
 * reads the IPv4-compatible address it is.
 */
function canonicalV6(text: string): string {
  if (!text.includes(':')) return text;
  try {
    return new URL(`http://[${text}]/`).hostname.slice(1, -1);
  } catch {
    return text;
  }
}

/** Whether a URL's host (brackets removed) is an IP address rather than a name. */
export const isIpAddress = (host: string): boolean => ipaddr.isValid(host.replace(/%.*$/, ''));

/** What kind of address a refused one is: the message keys of the webhook form follow it. */
type RefusalKind =
  'notAddress' | 'linkLocal' | 'unspecified' | 'broadcast' | 'multicast' | 'reserved' | 'cloudMetadata' | 'private';

interface Refusal {
  kind: RefusalKind;
  /** in English, for the delivery's error and the log */
  reason: string;
}

const KIND_OF_RANGE: Record<string, RefusalKind> = {
  linkLocal: 'linkLocal',
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  private: 'private',
  uniqueLocal: 'private',
  carrierGradeNat: 'private',
  loopback: 'private',
};

/**
 * Why a delivery may not connect to `ip`, or null when it may. `ip` is an address as DNS or a socket
 * gives it; anything that is not an address is refused.
 */
function judgeAddress(ip: string, allowPrivate: boolean): Refusal | null {
  const bare = canonicalV6(ip.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, ''));
  if (!ipaddr.isValid(bare)) return { kind: 'notAddress', reason: `${ip} is not an IP address` };
  const address = ipaddr.process(bare);
  const range = address.range();
  if (address.kind() === 'ipv6') {
    const v6 = address as ipaddr.IPv6;
    if (isIpv4Compatible(v6)) return { kind: 'reserved', reason: `${bare} is a deprecated IPv4-compatible address` };
    if (v6.match(LOCAL_USE_NAT64)) return { kind: 'reserved', reason: `${bare} is a local-use NAT64 address` };
    const inner = embeddedV4(v6, range);
    if (inner) {
      const refusal = judgeAddress(inner.toString(), allowPrivate);
      return refusal && { kind: refusal.kind, reason: `${bare} leads to ${refusal.reason}` };
    }
  }
  if (isCloudMetadata(address)) {
    return { kind: 'cloudMetadata', reason: `${address.toString()} is a cloud metadata address` };
  }
  const [open, closed] = address.kind() === 'ipv4' ? [PUBLIC_V4, PRIVATE_V4] : [PUBLIC_V6, PRIVATE_V6];
  if (open.has(range)) return null;
  if (closed.has(range) && allowPrivate) return null;
  const what = DESCRIPTIONS[range] ?? `a reserved address (${range})`;
  const hint = closed.has(range) ? ' and WEBHOOKS_ALLOW_PRIVATE is off' : '';
  return { kind: KIND_OF_RANGE[range] ?? 'reserved', reason: `${address.toString()} is ${what}${hint}` };
}

/** Why a delivery may not connect to `ip` (judgeAddress), in English; null when it may. */
export const addressRefusal = (ip: string, allowPrivate: boolean): string | null =>
  judgeAddress(ip, allowPrivate)?.reason ?? null;

/**
 * Why no delivery could ever go to a URL whose host is an IP address, with that address; null for a
 * name (what it resolves to is judged when a delivery connects) and for an address deliveries may reach.
 */
export function urlAddressRefusal(url: string, allowPrivate: boolean): (Refusal & { address: string }) | null {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
  } catch {
    return null;
  }
  if (!isIpAddress(host)) return null;
  const refusal = judgeAddress(host, allowPrivate);
  return refusal && { ...refusal, address: host };
}
