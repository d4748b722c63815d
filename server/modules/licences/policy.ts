import type { LicenceAbilities } from '../../../common/api/abilities';
import type { CustomerAccess } from '../../plugins/access';
import { holds } from '../../policy';

/**
 * What the caller may do with a licence of a customer, from the role held there (spec section 6):
 * renew, edit and customize with manageLicences, download (and so read the download secret) with
 * download, the details (latest download) with viewLicenceDetails. A customization needs a product
 * whose customization type is not `none`.
 */
export function licenceAbilities(
  access: Pick<CustomerAccess, 'role'>,
  licence: { customizationType: string },
): LicenceAbilities {
  const manage = holds(access, 'manageLicences');
  return {
    renew: manage,
    edit: manage,
    customize: manage && licence.customizationType !== 'none',
    download: holds(access, 'download'),
    viewDetails: holds(access, 'viewLicenceDetails'),
  };
}
