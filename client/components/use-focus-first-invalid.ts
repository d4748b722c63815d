import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * After a refused submit, moves focus to the first field marked invalid: a screen reader then reads
 * that field's label and error, which a message elsewhere on the page would not make it do.
 */
export function useFocusFirstInvalid<T extends HTMLElement = HTMLFormElement>() {
  const ref = useRef<T>(null);
  const [requests, setRequests] = useState(0);
  useEffect(() => {
    if (requests > 0) ref.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [requests]);
  const focusFirstInvalid = useCallback(() => setRequests((n) => n + 1), []);
  return { ref, focusFirstInvalid };
}
