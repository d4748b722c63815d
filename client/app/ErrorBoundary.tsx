import type { ReactNode } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { ErrorPage } from '../pages/error/ErrorPage';
import { ErrorBoundary } from './ErrorBoundaryBase';
import { DelayedLoader } from '../components/DelayedLoader';
import { isChunkLoadError, reloadIfReleased, reloader } from './reload';

export { ErrorBoundary } from './ErrorBoundaryBase';

/** Spec 8's error page for a page that failed: a link home and a reload for a new release. */
export function PageFailed({ error }: { error: unknown }) {
  const { t } = useTranslation();
  return (
    <ErrorPage
      message={isChunkLoadError(error) ? t('errors.pageLoadFailed') : t('errors.pageFailed')}
      onRetry={() => reloader.reload()}
      retryLabel={t('app.reload')}
    />
  );
}

/**
 * Around the pages: a failed page keeps the top bar and shows the error page in its place. A page
 * whose code cannot be fetched reloads only for a new release (reload.ts): with the network or the
 * server gone, the user stays in the portal with the message and a reload button.
 */
export function PageErrorBoundary({ children, resetKey }: { children: ReactNode; resetKey: string }) {
  return (
    <ErrorBoundary
      resetKey={resetKey}
      onChunkError={reloadIfReleased}
      pending={<DelayedLoader />}
      fallback={(error) => <PageFailed error={error} />}
    >
      {children}
    </ErrorBoundary>
  );
}
