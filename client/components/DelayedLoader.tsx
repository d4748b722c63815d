import { Center, Loader, VisuallyHidden } from '@mantine/core';
import { useTranslation } from '../i18n/use-translation';
import { LOADER_DELAY_MS } from '../../common/constants';
import { useDelayedVisible } from './use-delayed-visible';

/**
 * Spec 9: the loader only appears after 200 ms, so fast answers do not flash a spinner. A section of a
 * page names its own (`testId`), apart from the page's.
 */
export function DelayedLoader({ delay = LOADER_DELAY_MS, testId = 'loader' }: { delay?: number; testId?: string }) {
  const { t } = useTranslation();
  if (!useDelayedVisible(delay)) return null;
  return (
    // The spinner is decoration; the status text is what assistive technologies read.
    <Center py="xl" role="status" data-testid={testId}>
      <Loader aria-hidden />
      <VisuallyHidden>{t('app.loading')}</VisuallyHidden>
    </Center>
  );
}
