import { Button, Group } from '@mantine/core';
import { useTranslation } from '../../../i18n/use-translation';
import type { Licence } from '../../../../common/api/licences';
import { PencilIcon } from '../../../components/icons';
import { productLabel } from './product-label';

interface LicenceRowActionsProps {
  licence: Licence;
  /** opens the licence modal on this licence */
  onRenew: (licence: Licence) => void;
  /** opens the customization modal on this licence */
  onCustomize: (licence: Licence) => void;
}

/**
 * The actions of one licence, as its abilities allow (`can`, the server's licence policy): renew or
 * edit, and the licence's customization (only for products whose customization type is not none).
 */
export function LicenceRowActions({ licence, onRenew, onCustomize }: LicenceRowActionsProps) {
  const { t } = useTranslation();
  const product = productLabel(t, licence);
  return (
    <Group gap={4}>
      {licence.can.renew && (
        <Button
          size="compact-sm"
          variant="subtle"
          leftSection={<PencilIcon size={14} />}
          onClick={() => onRenew(licence)}
          aria-label={t('licences.renewLabel', { product })}
          data-testid="licence-renew"
        >
          {t('licences.renew')}
        </Button>
      )}
      {licence.can.customize && (
        <Button
          size="compact-sm"
          variant="subtle"
          onClick={() => onCustomize(licence)}
          aria-label={t('customization.actionLabel', { product: licence.productName })}
          data-testid="licence-customize"
        >
          {t('customization.action')}
        </Button>
      )}
    </Group>
  );
}
