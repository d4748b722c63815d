import type { CustomizationAbilities } from '../../../common/api/abilities';
import type { CustomizationType } from '../../../common/domain';
import { holds, type CustomerAccess } from '../../policy';
import { type CustomizableType, isCustomizable } from './schemas';

/**
 * Per-licence customizations (spec sections 4, 5 and 6). Who manages the customer's licences
 * (accountExecutive, admin, productManager) creates and changes them; who reads the licences' details
 * also reads them (the route's rule). Only a product with a customization type offers one.
 */
export const offersCustomization = <P extends { customizationType: CustomizationType }>(
  product: P,
): product is P & { customizationType: CustomizableType } => isCustomizable(product.customizationType);

/** The caller may create or change the customization of a licence of the product. */
export const mayCustomize = (
  access: Pick<CustomerAccess, 'role'> | null,
  product: { customizationType: CustomizationType },
): boolean => holds(access, 'manageLicences') && offersCustomization(product);

/** A customization, as the caller's role in its customer allows. */
export function customizationAbilities(
  access: Pick<CustomerAccess, 'role'>,
  customization: { customizationType: CustomizationType },
): CustomizationAbilities {
  return { edit: mayCustomize(access, customization) };
}
