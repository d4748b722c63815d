import { type AccessLevel, type VersionType, VISIBLE_VERSION_TYPES } from '../../../common/domain';
import { allowsDownload, licenceStatus } from '../../../common/licence-status';
import { holds, type CustomerAccess } from '../../policy';

/**
 * Who may download what (docs/decisions/037 and 038). A signed-in member downloads with a role of
 * the customer that holds `download` (the route's rule, and a licence's `can.download`); the secret
 * URL stands for its licence. Either way the licence decides which versions, and until when.
 */
export const mayDownload = (access: Pick<CustomerAccess, 'role'> | null): boolean => holds(access, 'download');

/** The version types a licence's access level opens (an alpha licence sees every type, a stable one the released). */
export const typesOpenTo = (licence: { accessLevel: AccessLevel }): readonly VersionType[] =>
  VISIBLE_VERSION_TYPES[licence.accessLevel];

/** A licence covers a version: one of its product, published, of a type its access level opens. */
export const licenceCovers = (
  licence: { productKey: string; accessLevel: AccessLevel },
  version: { productKey: string; published: boolean; type: VersionType },
): boolean =>
  version.published && version.productKey === licence.productKey && typesOpenTo(licence).includes(version.type);

/** A licence still serves downloads on `today`: through its grace period, not after (403 licence_expired). */
export const licenceAllowsDownload = (licence: { endDate: string }, today: string): boolean =>
  allowsDownload(licenceStatus(licence.endDate, today));
