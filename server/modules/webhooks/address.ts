import ipaddr from 'ipaddr.js';

/**
 * Which addresses a webhook delivery may connect to (docs/webhooks.md, docs/decisions/066): public
 * unicast ones; private and loopback ones only when WEBHOOKS_ALLOW_PRIVATE is on; link-local ones
 * (where cloud metadata services answer), unspecified, broadcast, multicast and reserved ones never.
 * The ranges come from ipaddr.js. An IPv6 address that carries an IPv4 one (mapped, NAT64, 6to4) is
 * judged by the IPv4 address it leads to; Teredo, whose IPv4 address is hidden, is refused.
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

/** The IPv4 address an IPv6 one carries in its last 32 bits, or in bits 16–48 for 6to4. */
function embeddedV4(address: ipaddr.IPv6, range: string): ipaddr.IPv4 | null {
  const parts = address.parts;
  const word = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff];
  if (range === 'rfc6052' || range === 'rfc6145') return new ipaddr.IPv4(word(parts[6], parts[7]));
  if (range === '6to4') return new ipaddr.IPv4(word(parts[1], parts[2]));
  return null;
}

/** Whether a URL's host (brackets removed) is an IP address rather than a name. */
export const isIpAddress = (host: string): boolean => ipaddr.isValid(host.replace(/%.*$/, ''));

/**
 * Why a delivery may not connect to `ip`, or null when it may. `ip` is an address as DNS or a socket
 * gives it; anything that is not an address is refused.
 */
export function addressRefusal(ip: string, allowPrivate: boolean): string | null {
  const bare = ip.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  if (!ipaddr.isValid(bare)) return `${ip} is not an IP address`;
  const address = ipaddr.process(bare);
  const range = address.range();
  if (address.kind() === 'ipv6') {
    const inner = embeddedV4(address as ipaddr.IPv6, range);
    if (inner) {
      const refusal = addressRefusal(inner.toString(), allowPrivate);
      return refusal && `${bare} leads to ${refusal}`;
    }
  }
  const [open, closed] = address.kind() === 'ipv4' ? [PUBLIC_V4, PRIVATE_V4] : [PUBLIC_V6, PRIVATE_V6];
  if (open.has(range)) return null;
  if (closed.has(range) && allowPrivate) return null;
  const what = DESCRIPTIONS[range] ?? `a reserved address (${range})`;
  const hint = closed.has(range) ? ' and WEBHOOKS_ALLOW_PRIVATE is off' : '';
  return `${address.toString()} is ${what}${hint}`;
}
