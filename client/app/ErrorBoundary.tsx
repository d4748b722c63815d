import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorPage } from '../pages/error/ErrorPage';
import { isChunkLoadError, reloadOnce, reloader } from './reload';

interface Props {
  children: ReactNode;
  /** What replaces the children once they failed. */
  fallback: (error: unknown) => ReactNode;
  /** A change (the next page's address) gives the children another try. */
  resetKey?: string;
  /** Told of a failed page fetch; true when the page is being reloaded (nothing then to show). */
  onChunkError?: (error: unknown) => boolean;
}

interface State {
  error: unknown;
  failed: boolean;
  reloading: boolean;
}

/** Without it a failure while rendering, or a page whose code cannot be fetched, empties the screen. */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, failed: false, reloading: false };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error, failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    if (isChunkLoadError(error) && this.props.onChunkError?.(error)) {
      this.setState({ reloading: true });
      return;
    }
    console.error('A page failed', error, info.componentStack);
  }

  override componentDidUpdate(previous: Props) {
    if (this.state.failed && previous.resetKey !== this.props.resetKey) {
      this.setState({ error: null, failed: false, reloading: false });
    }
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    if (this.state.reloading) return null;
    return this.props.fallback(this.state.error);
  }
}

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
