import { Alert, Button, Code, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from '../../i18n/use-translation';
import { copyToClipboard } from '../../components/copy-to-clipboard';
import { notify } from '../../components/notify';

/** Recovery codes just made: shown this once, to copy or write down. */
export function RecoveryCodesShown({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  async function copy() {
    try {
      await copyToClipboard(codes.join('\n'));
      notify({ status: 'success', message: t('security.codesCopied') });
    } catch {
      notify({ status: 'error', message: t('security.copyFailed') });
    }
  }
  return (
    <Alert color="yellow" title={t('security.codesTitle')} data-testid="recovery-codes">
      <Stack gap="sm">
        <Text size="sm">{t('security.codesShownOnce')}</Text>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" component="ul" style={{ listStyle: 'none', padding: 0 }}>
          {codes.map((code) => (
            <li key={code}>
              <Code fz="md">{code}</Code>
            </li>
          ))}
        </SimpleGrid>
        <Group>
          <Button variant="default" onClick={() => void copy()}>
            {t('security.copyCodes')}
          </Button>
          <Button onClick={onDone} data-testid="recovery-codes-done">
            {t('security.codesSaved')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
