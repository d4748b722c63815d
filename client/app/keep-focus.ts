/**
 * A button that shows it is busy (Mantine's `loading`: resending an invitation, starting a download,
 * syncing a customer) is disabled meanwhile, and a browser moves the focus off a disabled control to
 * the body: a keyboard user would start again from the top of the page. This keeps the focus on the
 * control: when the control that held the focus is disabled and the focus fell to the body, it is
 * given back once the control is enabled again, unless the user has moved on in between.
 * One observer for the whole application instead of a ref in every busy button.
 */
export function keepFocusThroughBusyControls(root: Document = document): () => void {
  let lastFocused: HTMLElement | null = null;
  let waiting: HTMLElement | null = null;
  const onFocusIn = (event: FocusEvent) => {
    if (event.target instanceof HTMLElement) lastFocused = event.target;
    // the user went somewhere else: nothing is given back
    if (waiting && event.target !== waiting) waiting = null;
  };
  const focusFell = () => root.activeElement === null || root.activeElement === root.body;
  const isDisabled = (element: HTMLElement) =>
    (element as HTMLButtonElement).disabled || element.getAttribute('aria-disabled') === 'true';
  const observer = new MutationObserver((mutations) => {
    for (const { target } of mutations) {
      if (!(target instanceof HTMLElement)) continue;
      if (target === lastFocused && isDisabled(target)) waiting = target;
      else if (target === waiting && !isDisabled(target)) {
        waiting = null;
        if (target.isConnected && focusFell()) target.focus({ preventScroll: true });
      }
    }
  });
  observer.observe(root.documentElement, {
    subtree: true,
    attributes: true,
    attributeFilter: ['disabled', 'aria-disabled'],
  });
  root.addEventListener('focusin', onFocusIn);
  return () => {
    observer.disconnect();
    root.removeEventListener('focusin', onFocusIn);
  };
}
