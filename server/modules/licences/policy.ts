import type { LicenceAbilities } from '../../../common/api/abilities';
import type { CustomizationType } from '../../../common/domain';
import { holds, type CustomerAccess } from '../../policy';
import { mayCustomize } from '../customizations/policy';
import { mayDownload } from '../downloads/policy';

/**
 * What the caller may do with a licence of a customer, from the role held there (spec section 6):
 * renew and edit with manageLicences, customize as customizations/policy.ts says (manageLicences, and
 * a product whose customization type is not `none`), download (and so read the download secret) as
 * downloads/policy.ts says, the details (latest download) with viewLicenceDetails.
 */
export function licenceAbilities(
  access: Pick<CustomerAccess, 'role'>,
  licence: { customizationType: CustomizationType },
): LicenceAbilities {
  const manage = holds(access, 'manageLicences');
  return {
    renew: manage,
    edit: manage,
    customize: mayCustomize(access, licence),
    download: mayDownload(access),
    viewDetails: holds(access, 'viewLicenceDetails'),
  };
}
