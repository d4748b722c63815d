import { Component, type ErrorInfo, type ReactNode } from 'react';
import { isChunkLoadError } from './reload';

interface ErrorBoundaryProps {
  children: ReactNode;
  /** What replaces the children once they failed. */
  fallback: (error: unknown) => ReactNode;
  /** A change (the next page's address) gives the children another try. */
  resetKey?: string;
  /**
   * Told of a failed page fetch; resolves to true when the page is being reloaded (nothing then to
   * show). Until it answers, `pending` shows.
   */
  onChunkError?: (error: unknown) => boolean | Promise<boolean>;
  pending?: ReactNode;
}

interface State {
  error: unknown;
  failed: boolean;
  reloading: boolean;
}

/** Without it a failure while rendering, or a page whose code cannot be fetched, empties the screen. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, State> {
  override state: State = { error: null, failed: false, reloading: false };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error, failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    const { onChunkError } = this.props;
    if (isChunkLoadError(error) && onChunkError) {
      this.setState({ reloading: true });
      const shown = () => {
        // unless another page was opened meanwhile
        if (this.state.error === error) this.setState({ reloading: false });
      };
      Promise.resolve()
        .then(() => onChunkError(error))
        .then((reloading) => {
          if (!reloading) {
            console.error('A page could not be fetched', error);
            shown();
          }
        }, shown);
      return;
    }
    console.error('A page failed', error, info.componentStack);
  }

  override componentDidUpdate(previous: ErrorBoundaryProps) {
    if (this.state.failed && previous.resetKey !== this.props.resetKey) {
      this.setState({ error: null, failed: false, reloading: false });
    }
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    if (this.state.reloading) return this.props.pending ?? null;
    return this.props.fallback(this.state.error);
  }
}
