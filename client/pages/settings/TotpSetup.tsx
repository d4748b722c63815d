import { Alert, Button, Code, Group, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import type { FactorAdded, TotpEnrolment } from '../../../common/api/two-factor';
import { confirmTotp } from '../../api/two-factor';
import { apiErrorText } from '../../components/forms';

/** The QR code as an image: the server drew it (an SVG of its own), never markup put in the page. */
const qrSource = (svg: string) => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;

/** Setting up the authenticator app: scan (or type the key), then a code proves it works. */
export function TotpSetup({
  enrolment,
  onAdded,
  onCancel,
}: {
  enrolment: TotpEnrolment;
  onAdded: (added: FactorAdded) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const confirm = useMutation({ mutationFn: confirmTotp, onSuccess: onAdded });
  function submit(event: FormEvent) {
    event.preventDefault();
    confirm.mutate({ code, name: t('security.totpDefaultName') });
  }
  return (
    <form onSubmit={submit} noValidate data-testid="totp-setup">
      <Stack gap="sm">
        <Text size="sm">{t('security.totpScan')}</Text>
        <img src={qrSource(enrolment.qrSvg)} alt={t('security.qrAlt')} width={200} height={200} data-testid="totp-qr" />
        <Text size="sm">
          {t('security.totpKey')}{' '}
          <Code data-testid="totp-secret" style={{ wordBreak: 'break-all' }}>
            {enrolment.secret}
          </Code>
        </Text>
        <TextInput
          label={t('security.totpCode')}
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maw={240}
          data-autofocus
          autoFocus
          value={code}
          onChange={(event) => setCode(event.currentTarget.value)}
        />
        {confirm.error && (
          <Alert color="red" role="alert" data-testid="totp-error">
            {apiErrorText(confirm.error, t)}
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={confirm.isPending}>
            {t('security.totpConfirm')}
          </Button>
          <Button variant="default" onClick={onCancel}>
            {t('security.cancel')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
