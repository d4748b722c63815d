import { createTheme, MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import { type ReactNode, useEffect } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { BrowserRouter } from 'react-router';
import { SUCCESS_NOTIFICATION_MS } from '../../common/constants';
import { NOTIFICATIONS_PLACEMENT } from '../components/layout';
import { setNotificationCloseLabel } from '../components/notify';
import { AppRoutes } from './routes';
import { shouldRetry } from './session';

const theme = createTheme({
  primaryColor: 'indigo',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
});

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

function NotificationLabels() {
  const { t } = useTranslation();
  useEffect(() => setNotificationCloseLabel(t('app.close')), [t]);
  return null;
}

export function Providers({
  i18n,
  queryClient,
  children,
}: {
  i18n: I18n;
  queryClient: QueryClient;
  children: ReactNode;
}) {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <MantineProvider theme={theme} defaultColorScheme="light">
          <NotificationLabels />
          <Notifications autoClose={SUCCESS_NOTIFICATION_MS} {...NOTIFICATIONS_PLACEMENT} />
          <ModalsProvider>{children}</ModalsProvider>
        </MantineProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}

export function App({ i18n, queryClient }: { i18n: I18n; queryClient: QueryClient }) {
  return (
    <Providers i18n={i18n} queryClient={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </Providers>
  );
}
