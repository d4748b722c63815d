import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { BrowserRouter } from 'react-router';
import type { Translator } from '../i18n/translate';
import { TranslatorProvider } from '../i18n/use-translation';
import { ErrorBoundary, PageFailed } from './ErrorBoundary';
import { reloadIfReleased } from './reload';
import { AppRoutes } from './routes';
import { shouldRetry } from './session';
import { CSS_VARIABLES_SELECTOR, cssVariablesResolver, theme } from './theme';
import { Toasts } from './Toasts';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

function Providers({
  i18n,
  queryClient,
  children,
}: {
  i18n: Translator;
  queryClient: QueryClient;
  children: ReactNode;
}) {
  return (
    <TranslatorProvider translator={i18n}>
      <QueryClientProvider client={queryClient}>
        <MantineProvider
          theme={theme}
          cssVariablesResolver={cssVariablesResolver}
          cssVariablesSelector={CSS_VARIABLES_SELECTOR}
          defaultColorScheme="light"
        >
          {/* Toasts are extra: if their code cannot be fetched, the page goes on without them. */}
          <ErrorBoundary fallback={() => null}>
            <Toasts />
          </ErrorBoundary>
          {children}
        </MantineProvider>
      </QueryClientProvider>
    </TranslatorProvider>
  );
}

export function App({ i18n, queryClient }: { i18n: Translator; queryClient: QueryClient }) {
  return (
    <Providers i18n={i18n} queryClient={queryClient}>
      {/*
        Navigations are not transitions: a page whose code is still on its way shows the loader
        (after 200 ms, spec 9) instead of leaving the previous page on screen without a sign.
      */}
      <BrowserRouter useTransitions={false}>
        {/* The last resort, for what fails outside the pages (the top bar's code, say). */}
        <ErrorBoundary onChunkError={reloadIfReleased} fallback={(error) => <PageFailed error={error} />}>
          <AppRoutes />
        </ErrorBoundary>
      </BrowserRouter>
    </Providers>
  );
}
