import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorPage } from '../pages/error/ErrorPage';
import { ErrorBoundary } from './ErrorBoundaryBase';
import { isChunkLoadError, reloadOnce, reloader } from './reload';

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

/** Around the pages: a failed page keeps the top bar and shows the error page in its place. */
export function PageErrorBoundary({ children, resetKey }: { children: ReactNode; resetKey: string }) {
  return (
    <ErrorBoundary
      resetKey={resetKey}
      onChunkError={() => reloadOnce()}
      fallback={(error) => <PageFailed error={error} />}
    >
      {children}
    </ErrorBoundary>
  );
}
