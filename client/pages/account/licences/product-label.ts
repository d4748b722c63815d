import type { Translate } from '../../../i18n/translate';

/** A product's name with spec 2's suffixes: "(SaaS)" and "(with Entity resolution)", translated. */
export function productLabel(
  t: Translate,
  item: { productName?: string; name?: string; isSaas: boolean; hasEntityResolution?: boolean },
): string {
  return [
    item.productName ?? item.name ?? '',
    item.isSaas ? t('licences.suffix.saas') : null,
    item.hasEntityResolution ? t('licences.suffix.entityResolution') : null,
  ]
    .filter(Boolean)
    .join(' ');
}
