import { Center, Loader } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LOADER_DELAY_MS } from '../../common/constants';

/** Spec 9: the loader only appears after 200 ms, so fast answers do not flash a spinner. */
export function DelayedLoader({ delay = LOADER_DELAY_MS }: { delay?: number }) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(delay <= 0);
  useEffect(() => {
    if (delay <= 0) return;
    const timer = setTimeout(() => setVisible(true), delay);
    return () => clearTimeout(timer);
  }, [delay]);
  if (!visible) return null;
  return (
    <Center py="xl" data-testid="loader">
      <Loader aria-label={t('app.loading')} />
    </Center>
  );
}
