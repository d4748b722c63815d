import type { Licence } from '../../../../common/api/licences';

/** The address parameter holding the product whose versions the customer page shows. */
export const PRODUCT_PARAM = 'versions-product';

/** The licence whose product has the newest release with files to download; the first one without any. */
export function newestWithFiles(licences: Licence[]): Licence | undefined {
  let newest: Licence | undefined;
  for (const licence of licences) {
    const released = licence.latestFilesReleased;
    if (released && (!newest?.latestFilesReleased || released > newest.latestFilesReleased)) newest = licence;
  }
  return newest ?? licences[0];
}
