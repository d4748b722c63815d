export const CLIPBOARD_NOT_AVAILABLE = 'Clipboard not available';

/** Spec 5: copying rejects with "Clipboard not available" where the browser offers no clipboard. */
export async function copyToClipboard(text: string): Promise<void> {
  const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
  if (!clipboard?.writeText) throw new Error(CLIPBOARD_NOT_AVAILABLE);
  await clipboard.writeText(text);
}
