import type { Licence } from '../../../../common/api/licences';

/** The address parameter holding the product whose versions the customer page shows. */
export const PRODUCT_PARAM = 'versions-product';

/**
 * The product a technical contact finds selected once the licences are in (spec 4 "Customer page
 * load": "the first product is selected"): the first of the products offered, in the licences'
 * order (by product name), SaaS ones left out. Decision 041.
 */
export function firstProduct(licences: Licence[]): Licence | undefined {
  return licences.find((licence) => !licence.isSaas);
}
