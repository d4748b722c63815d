import type { SearchQuery, SearchResult, SearchResults } from '../../../common/api/search';
import { MAX_ID } from '../../../common/api/common';
import { type Actor, signedInUser } from '../../actor';
import type { AppContext } from '../../context';
import { forbidden } from '../../http-error';
import { maySearch, searchReach } from './policy';
import * as repo from './repo';

/**
 * Results in the order of their titles, whatever the case and accents, then of their keys. The
 * collators are made once: `localeCompare` with options makes one per comparison.
 */
const TITLE_ORDER = new Intl.Collator(undefined, { sensitivity: 'base' });
const KEY_ORDER = new Intl.Collator();
const byTitle = (a: SearchResult, b: SearchResult) =>
  TITLE_ORDER.compare(a.title, b.title) || KEY_ORDER.compare(a.key, b.key);

/**
 * The staff's search box (GET /api/search): a few customers, users or members, licences, products
 * and versions matching the text, each with the page it opens, for a caller who is staff. Every
 * kind reads at most `limit` rows (docs/decisions/079-staff-search.md).
 */
export async function search(ctx: AppContext, actor: Actor, query: SearchQuery): Promise<SearchResults> {
  const { user } = signedInUser(actor);
  if (!maySearch(user)) throw forbidden();
  const reach = searchReach(user);
  const { db } = ctx;
  const text = query.q;
  const { limit } = query;
  const licenceNumber = parseLicenceNumber(text);
  const version = parseVersion(text);

  const [customers, users, members, licences, products, versions] = await Promise.all([
    reach.customers ? repo.findCustomers(db, text, limit, reach.customers) : [],
    reach.users ? repo.findUsers(db, text, limit) : [],
    reach.members ? repo.findMembers(db, text, limit, reach.members) : [],
    reach.licences && licenceNumber !== null ? repo.findLicence(db, licenceNumber, reach.licences) : [],
    reach.catalogue ? repo.findProducts(db, text, limit) : [],
    reach.catalogue && version ? repo.findVersions(db, version.semVer, version.productText, limit) : [],
  ]);

  const data: SearchResult[] = [
    ...customers
      .map((c) => ({
        kind: 'customer' as const,
        key: String(c.id),
        title: c.name,
        context: c.customerKey,
        path: `/accounts/${c.id}`,
      }))
      .sort(byTitle),
    ...users
      .map((u) => ({
        kind: 'user' as const,
        key: String(u.id),
        title: u.fullName,
        context: u.email,
        path: `/users?q=${encodeURIComponent(u.email)}`,
      }))
      .sort(byTitle),
    ...members
      .map((m) => ({
        kind: 'member' as const,
        key: `${m.userId}`,
        title: m.fullName,
        context: `${m.email} · ${m.customerName}`,
        path: `/accounts/${m.customerId}?members-q=${encodeURIComponent(m.email)}`,
      }))
      .sort(byTitle),
    ...licences.map((l) => ({
      kind: 'licence' as const,
      key: String(l.id),
      title: `#${l.id} ${l.productName}`,
      context: `${l.customerName} · ${l.endDate}`,
      path: `/accounts/${l.customerId}`,
    })),
    ...products.map((p) => ({
      kind: 'product' as const,
      key: p.key,
      title: p.name,
      context: p.key,
      path: `/products/${encodeURIComponent(p.key)}`,
    })),
    ...versions.map((v) => ({
      kind: 'version' as const,
      key: String(v.id),
      title: `${v.productName} ${v.semVer}`,
      context: [v.title, v.releaseDate].filter(Boolean).join(' · '),
      path: `/products/${encodeURIComponent(v.productKey)}`,
    })),
  ];
  return { data };
}

/** A licence number as staff type it: its id, with or without a leading `#`. */
export function parseLicenceNumber(text: string): number | null {
  const match = /^#?\s*(\d{1,10})$/.exec(text);
  if (!match) return null;
  const id = Number(match[1]);
  return id >= 1 && id <= MAX_ID ? id : null;
}

/**
 * A version as staff type it: the start of a semantic version as the last word (`2.1`, `v2.1.0-beta`),
 * after the words of a product's key or name if any (`graph server 2.1`).
 */
export function parseVersion(text: string): { semVer: string; productText: string | null } | null {
  const match = /^(?:(.*\S)\s+)?v?(\d+(?:\.[0-9A-Za-z.+-]*)?)$/i.exec(text);
  if (!match) return null;
  return { semVer: match[2], productText: match[1] ?? null };
}
