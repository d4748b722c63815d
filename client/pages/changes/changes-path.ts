/** The page of what changed in a product since a version, for a customer: `/accounts/{id}/changes/{product}/{semVer}`. */
export function changesPath(customerId: number, productKey: string, semVer: string): string {
  return `/accounts/${customerId}/changes/${encodeURIComponent(productKey)}/${encodeURIComponent(semVer)}`;
}
