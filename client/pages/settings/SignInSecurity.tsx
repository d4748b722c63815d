import { Alert, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import type { ConfirmIdentityBody, FactorAdded, TotpEnrolment, TwoFactorStatus } from '../../../common/api/two-factor';
import { formatLocalDayMonthYear } from '../../../common/format';
import type { Locale } from '../../../common/roles';
import { authKeys } from '../../api/auth';
import { passkeyCancelled, passkeyCreation, passkeysSupported } from '../../api/passkey-browser';
import {
  addPasskey,
  passkeyRegistrationOptions,
  regenerateRecoveryCodes,
  removePasskey,
  removeTotp,
  renamePasskey,
  renameTotp,
  startTotp,
  twoFactorKeys,
  twoFactorQuery,
} from '../../api/two-factor';
import { apiErrorText } from '../../components/forms';
import { LoadError } from '../../components/LoadError';
import { notify } from '../../components/notify';
import { RecoveryCodesShown } from './RecoveryCodesShown';
import { TotpSetup } from './TotpSetup';
import { lazyFormDialog } from '../../components/FormModal';

// its form and schema come when it is first opened (decision 092)
const ConfirmIdentityModal = lazyFormDialog(() =>
  import('./ConfirmIdentityModal').then((module) => module.ConfirmIdentityModal),
) as typeof import('./ConfirmIdentityModal').ConfirmIdentityModal;

/** A factor: a passkey by id, or the authenticator app. */
type Factor = { kind: 'passkey'; id: number; name: string } | { kind: 'totp'; name: string };

function FactorRow({
  factor,
  createdAt,
  lastUsedAt,
  onRemove,
  onRenamed,
}: {
  factor: Factor;
  createdAt: string;
  lastUsedAt: string | null;
  onRemove: () => void;
  onRenamed: (status: TwoFactorStatus) => void;
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(factor.name);
  const rename = useMutation({
    mutationFn: (value: string) => (factor.kind === 'passkey' ? renamePasskey(factor.id, value) : renameTotp(value)),
    onSuccess: (status) => {
      setEditing(false);
      onRenamed(status);
    },
  });
  function submit(event: FormEvent) {
    event.preventDefault();
    rename.mutate(name);
  }
  if (editing) {
    return (
      <form onSubmit={submit} noValidate>
        <Stack gap="xs">
          <TextInput
            label={t('security.name')}
            value={name}
            maxLength={100}
            autoFocus
            onChange={(event) => setName(event.currentTarget.value)}
            error={rename.error ? apiErrorText(rename.error, t) : undefined}
          />
          <Group gap="xs">
            <Button type="submit" size="xs" loading={rename.isPending}>
              {t('security.save')}
            </Button>
            <Button size="xs" variant="default" onClick={() => setEditing(false)}>
              {t('security.cancel')}
            </Button>
          </Group>
        </Stack>
      </form>
    );
  }
  return (
    <Group justify="space-between" wrap="wrap" gap="xs" data-testid={`factor-${factor.kind}`}>
      <div>
        <Text fw={500}>{factor.name}</Text>
        <Text size="sm" c="dimmed">
          {t('security.added', { date: formatLocalDayMonthYear(createdAt, locale) })}
          {' · '}
          {lastUsedAt
            ? t('security.lastUsed', { date: formatLocalDayMonthYear(lastUsedAt, locale) })
            : t('security.neverUsed')}
        </Text>
      </div>
      <Group gap="xs">
        <Button
          size="xs"
          variant="default"
          onClick={() => setEditing(true)}
          aria-label={t('security.renameNamed', { name: factor.name })}
        >
          {t('security.rename')}
        </Button>
        <Button
          size="xs"
          variant="light"
          color="red"
          onClick={onRemove}
          aria-label={t('security.removeNamed', { name: factor.name })}
        >
          {t('security.remove')}
        </Button>
      </Group>
    </Group>
  );
}

/** Settings, "Sign-in security": passkeys, the authenticator app and recovery codes. */
export function SignInSecurity() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const status = useQuery(twoFactorQuery());
  const [codes, setCodes] = useState<string[] | null>(null);
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [removing, setRemoving] = useState<Factor | null>(null);
  const [regenerating, setRegenerating] = useState(false);

  async function changed(next: TwoFactorStatus) {
    queryClient.setQueryData(twoFactorKeys.status, next);
    // whether the account still must add a factor (REQUIRE_2FA_FOR) is in the profile
    await queryClient.invalidateQueries({ queryKey: authKeys.profile });
  }
  const added = (result: FactorAdded, message: string) => {
    if (result.recoveryCodes) setCodes(result.recoveryCodes);
    notify({ status: 'success', message });
    void changed(result.status);
  };
  const onError = (error: unknown) => {
    if (!passkeyCancelled(error))
      notify({ status: 'error', title: t('security.error'), message: apiErrorText(error, t) });
  };

  const newPasskey = useMutation({
    mutationFn: async () => {
      if (!passkeysSupported()) throw new Error(t('security.passkeyUnsupported'));
      const credential = await passkeyCreation(await passkeyRegistrationOptions());
      const count = (status.data?.passkeys.length ?? 0) + 1;
      return addPasskey({ name: t('security.passkeyDefaultName', { count }), credential });
    },
    onSuccess: (result) => added(result, t('security.passkeyAdded')),
    onError,
  });
  const beginTotp = useMutation({ mutationFn: startTotp, onSuccess: setEnrolment, onError });
  const removeFactor = (factor: Factor, identity: ConfirmIdentityBody) =>
    factor.kind === 'passkey' ? removePasskey(factor.id, identity) : removeTotp(identity);

  const data = status.data;
  const factors = data ? data.passkeys.length + (data.totp ? 1 : 0) : 0;
  return (
    <Paper withBorder p="lg" radius="md" data-testid="settings-security">
      <Title order={2} size="h3" mb="md">
        {t('security.title')}
      </Title>
      <LoadError query={status} messageKey="security.loadError" testId="security-error" />
      {data && (
        <Stack gap="lg">
          <Text size="sm">{t('security.intro')}</Text>
          {data.required && factors === 0 && (
            <Alert color="yellow" role="status" data-testid="security-required">
              {t('security.required')}
            </Alert>
          )}
          {codes && <RecoveryCodesShown codes={codes} onDone={() => setCodes(null)} />}
          <Stack gap="sm">
            <Title order={3} size="h4">
              {t('security.passkeys')}
            </Title>
            {data.passkeys.length === 0 && (
              <Text size="sm" c="dimmed">
                {t('security.noPasskeys')}
              </Text>
            )}
            {data.passkeys.map((key) => (
              <FactorRow
                key={key.id}
                factor={{ kind: 'passkey', id: key.id, name: key.name }}
                createdAt={key.createdAt}
                lastUsedAt={key.lastUsedAt}
                onRemove={() => setRemoving({ kind: 'passkey', id: key.id, name: key.name })}
                onRenamed={(next) => void changed(next)}
              />
            ))}
            <Group>
              <Button
                variant="light"
                onClick={() => newPasskey.mutate()}
                loading={newPasskey.isPending}
                data-testid="add-passkey"
              >
                {t('security.addPasskey')}
              </Button>
            </Group>
          </Stack>
          <Stack gap="sm">
            <Title order={3} size="h4">
              {t('security.totp')}
            </Title>
            {data.totp ? (
              <FactorRow
                factor={{ kind: 'totp', name: data.totp.name }}
                createdAt={data.totp.createdAt}
                lastUsedAt={data.totp.lastUsedAt}
                onRemove={() => setRemoving({ kind: 'totp', name: data.totp!.name })}
                onRenamed={(next) => void changed(next)}
              />
            ) : enrolment ? (
              <TotpSetup
                enrolment={enrolment}
                onAdded={(result) => {
                  setEnrolment(null);
                  added(result, t('security.totpAdded'));
                }}
                onCancel={() => setEnrolment(null)}
              />
            ) : (
              <>
                <Text size="sm" c="dimmed">
                  {t('security.noTotp')}
                </Text>
                <Group>
                  <Button
                    variant="light"
                    onClick={() => beginTotp.mutate()}
                    loading={beginTotp.isPending}
                    data-testid="add-totp"
                  >
                    {t('security.addTotp')}
                  </Button>
                </Group>
              </>
            )}
          </Stack>
          {factors > 0 && (
            <Stack gap="sm">
              <Title order={3} size="h4">
                {t('security.codesTitle')}
              </Title>
              <Text size="sm" data-testid="recovery-codes-left">
                {t('security.codesLeft', { count: data.recoveryCodesLeft })}
              </Text>
              <Group>
                <Button variant="default" onClick={() => setRegenerating(true)} data-testid="regenerate-codes">
                  {t('security.regenerate')}
                </Button>
              </Group>
            </Stack>
          )}
        </Stack>
      )}
      <ConfirmIdentityModal
        opened={removing !== null}
        title={t('security.removeTitle')}
        message={t('security.removeConfirm', { name: removing?.name ?? '' })}
        confirmLabel={t('security.remove')}
        confirmColor="red"
        canUseCode={Boolean(data?.totp)}
        testId="remove-factor-modal"
        onClose={() => setRemoving(null)}
        action={(identity) => removeFactor(removing!, identity)}
        onDone={(next) => {
          notify({ status: 'success', message: t('security.removed') });
          void changed(next);
        }}
        onFailed={onError}
      />
      <ConfirmIdentityModal
        opened={regenerating}
        title={t('security.regenerate')}
        message={t('security.regenerateConfirm')}
        confirmLabel={t('security.regenerate')}
        canUseCode={Boolean(data?.totp)}
        testId="regenerate-modal"
        onClose={() => setRegenerating(false)}
        action={regenerateRecoveryCodes}
        onDone={(result) => {
          setCodes(result.recoveryCodes);
          void queryClient.invalidateQueries({ queryKey: twoFactorKeys.status });
        }}
        onFailed={onError}
      />
    </Paper>
  );
}
