import { CLIPBOARD_NOT_AVAILABLE, copyToClipboard } from './copy-to-clipboard';
import { notify } from './notify';

/**
 * Copies `text` and says so with `copied`, or why it could not (a browser without a clipboard gets
 * the licences' message). Download secrets, download addresses, checksums, commands and script addresses are copied with it.
 */
export async function copyWithNotice(text: string, copied: string, t: (key: string) => string): Promise<void> {
  try {
    await copyToClipboard(text);
    notify({ status: 'success', message: copied });
  } catch (error) {
    notify({
      status: 'error',
      message:
        error instanceof Error && error.message === CLIPBOARD_NOT_AVAILABLE
          ? t('licences.clipboardNotAvailable')
          : t('errors.generic'),
    });
  }
}
