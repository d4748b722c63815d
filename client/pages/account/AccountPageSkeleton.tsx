import { DelayedLoader } from '../../components/DelayedLoader';

/**
 * The page while its one answer is on the way (decision 052): the height of a window, so that
 * nothing below moves when the page comes, and the loader after 200 ms (spec 9), not a flash of it.
 */
export function AccountPageSkeleton() {
  return (
    <div style={{ minHeight: '100dvh' }} data-testid="account-page-loading">
      <DelayedLoader />
    </div>
  );
}
