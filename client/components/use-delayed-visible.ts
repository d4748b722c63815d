import { useEffect, useState } from 'react';
import { LOADER_DELAY_MS } from '../../common/constants';

/** Spec 9: a loader only appears after 200 ms, so fast answers do not flash a spinner. */
export function useDelayedVisible(delay = LOADER_DELAY_MS): boolean {
  const [visible, setVisible] = useState(delay <= 0);
  useEffect(() => {
    if (delay <= 0) return;
    const timer = setTimeout(() => setVisible(true), delay);
    return () => clearTimeout(timer);
  }, [delay]);
  return visible;
}
