import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { SUCCESS_NOTIFICATION_MS } from '../../common/constants';
import { NOTIFICATIONS_PLACEMENT, SMALL_SCREEN_NOTIFICATIONS_PLACEMENT, useSmallScreen } from '../components/layout';
import { toastHistory, setToastCloseLabel } from '../components/notify';

// The toasts' container (and its transitions) is fetched with the first toast: most first visits,
// the sign-in page's included, never show one (decision 020).
const Notifications = lazy(() =>
  import('@mantine/notifications').then((module) => ({ default: module.Notifications })),
);

/** Whether a toast was asked for since `firstId` was the newest entry (earlier ones come from the tab's history). */
const newEntrySince = (firstId: string | undefined) => {
  const newest = toastHistory.getSnapshot()[0];
  return newest !== undefined && newest.id !== firstId;
};

export function Toasts() {
  const { t } = useTranslation();
  useEffect(() => setToastCloseLabel(t('app.close')), [t]);
  const [firstId] = useState(() => toastHistory.getSnapshot()[0]?.id);
  const [wanted, setWanted] = useState(false);
  const small = useSmallScreen();
  useEffect(() => {
    if (wanted) return;
    const check = () => {
      if (newEntrySince(firstId)) setWanted(true);
    };
    check(); // a toast shown between the first render and this effect
    return toastHistory.subscribe(check);
  }, [wanted, firstId]);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Notifications
        autoClose={SUCCESS_NOTIFICATION_MS}
        {...(small ? SMALL_SCREEN_NOTIFICATIONS_PLACEMENT : NOTIFICATIONS_PLACEMENT)}
      />
    </Suspense>
  );
}
