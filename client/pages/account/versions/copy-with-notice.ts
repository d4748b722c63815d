import { CLIPBOARD_NOT_AVAILABLE, copyToClipboard } from '../../../components/copy-to-clipboard';
import { notify } from '../../../components/notify';

/**
 * Copies `text` and says so with `copied`, or why it could not (a browser without a clipboard gets
 * the licences' message). The release pages copy checksums, commands and secret addresses with it.
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
