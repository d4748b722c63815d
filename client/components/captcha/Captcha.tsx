import { Alert, Checkbox, Group, Loader, Paper, Progress, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getCaptchaChallenge } from '../../api/auth';
import { useConfig } from '../../app/session';
import { CheckIcon } from '../icons';
import { Recaptcha } from './Recaptcha';
import { captchaResponse, solveChallenge } from './solve';

export interface CaptchaProps {
  /** The response to send as `recaptchaResponse`, or null while there is none. */
  onChange: (response: string | null) => void;
}

/** Remount (change its `key`) to get a fresh challenge: the server accepts each answer once. */
export function Captcha({ onChange }: CaptchaProps) {
  const { t } = useTranslation();
  const config = useConfig();
  if (config.isError) {
    return (
      <Alert color="red" role="alert" data-testid="captcha">
        {t('captcha.recaptchaFailed')}
      </Alert>
    );
  }
  if (!config.data) return <Loader size="sm" aria-label={t('captcha.loading')} />;
  const captcha = config.data.captcha;
  return (
    <div data-testid="captcha">
      {captcha.provider === 'recaptcha' ? (
        <Recaptcha siteKey={captcha.siteKey} onChange={onChange} />
      ) : (
        <BuiltinCaptcha onChange={onChange} />
      )}
    </div>
  );
}

type State = 'idle' | 'verifying' | 'verified' | 'failed';

function BuiltinCaptcha({ onChange }: CaptchaProps) {
  const { t } = useTranslation();
  const [state, setState] = useState<State>('idle');
  const [progress, setProgress] = useState(0);
  const abort = useRef<AbortController | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  useEffect(() => () => abort.current?.abort(), []);

  async function verify() {
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setState('verifying');
    setProgress(0);
    try {
      const challenge = await getCaptchaChallenge();
      const number = await solveChallenge(challenge, { signal: controller.signal, onProgress: setProgress });
      if (controller.signal.aborted) return;
      if (number === null) throw new Error('unsolvable challenge');
      setState('verified');
      onChangeRef.current(captchaResponse(challenge, number));
    } catch {
      if (controller.signal.aborted) return;
      setState('failed');
      onChangeRef.current(null);
    }
  }

  function toggle(checked: boolean) {
    if (checked) {
      void verify();
    } else {
      abort.current?.abort();
      setState('idle');
      onChangeRef.current(null);
    }
  }

  return (
    <Paper withBorder p="sm" radius="sm" data-state={state}>
      <Group justify="space-between" wrap="nowrap">
        <Checkbox
          label={t('captcha.label')}
          checked={state === 'verifying' || state === 'verified'}
          disabled={state === 'verifying'}
          onChange={(event) => toggle(event.currentTarget.checked)}
        />
        <Text size="sm" c={state === 'verified' ? 'teal' : 'dimmed'} aria-live="polite">
          {state === 'verifying' && t('captcha.verifying')}
          {state === 'verified' && (
            <Group component="span" gap={4}>
              <CheckIcon size={14} />
              {t('captcha.verified')}
            </Group>
          )}
        </Text>
      </Group>
      {state === 'verifying' && <Progress mt="xs" size="xs" value={Math.round(progress * 100)} animated />}
      {state === 'failed' && (
        <Alert mt="xs" color="red" p="xs">
          {t('captcha.failed')}
        </Alert>
      )}
    </Paper>
  );
}
