import { type FormEvent, useState } from 'react';
import type { Profile } from '../../../common/api/auth';
import type { SecondFactorBody, SecondFactorMethod } from '../../../common/api/two-factor';
import { completeSignIn, passkeySignInOptions } from '../../api/auth';
import { ApiError } from '../../api/client';
import { passkeyAssertion, passkeyCancelled, passkeysSupported } from '../../api/passkey-browser';
import { apiErrorText } from '../../components/forms';
import type { Translate } from '../../i18n/translate';
import { useTranslation } from '../../i18n/use-translation';
import { useAction } from '../../public/session';
import { Alert, Button, TextField } from '../../public/ui';

/**
 * The sign-in's second step (docs/security.md, "Two-factor sign-in"), loaded only when an account
 * asks for it: a passkey, a code of the authenticator app, or a recovery code.
 */

/** A passkey sign-in: after the password (the pending sign-in's passkeys) or without one. */
export async function signInWithPasskey(): Promise<Profile> {
  if (!passkeysSupported()) throw new Error('passkeys-unsupported');
  const credential = await passkeyAssertion(await passkeySignInOptions());
  return completeSignIn({ method: 'passkey', credential });
}

/** The text of a failed passkey or second step; null when the person cancelled the dialog. */
export function passkeyErrorText(error: unknown, t: Translate): string | null {
  if (passkeyCancelled(error)) return null;
  if (error instanceof Error && error.message === 'passkeys-unsupported') return t('login.passkeyUnsupported');
  return t('login.secondFactorError', { error: apiErrorText(error, t) });
}

export function SecondFactorStep({
  methods,
  onSignedIn,
  onRestart,
}: {
  methods: SecondFactorMethod[];
  onSignedIn: (profile: Profile) => void;
  onRestart: () => void;
}) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<'totp' | 'recoveryCode'>(methods.includes('totp') ? 'totp' : 'recoveryCode');
  const [code, setCode] = useState('');
  const [feedback, setFeedback] = useState<string | null>(null);
  const [expired, setExpired] = useState(false);

  const onError = (error: unknown) => {
    setFeedback(passkeyErrorText(error, t));
    if (error instanceof ApiError && error.code === 'sign_in_expired') setExpired(true);
  };
  const verify = useAction((body: SecondFactorBody) => completeSignIn(body), { onSuccess: onSignedIn, onError });
  const passkey = useAction(signInWithPasskey, { onSuccess: onSignedIn, onError });
  const codeMethods = methods.filter((m) => m !== 'passkey');

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!code.trim()) {
      setFeedback(t('login.codeRequired'));
      return;
    }
    setFeedback(null);
    verify.run({ method: mode, code });
  }

  if (expired) {
    return (
      <div className="p-stack-sm" data-testid="second-factor">
        <Alert color="red" role="alert" data-testid="login-error">
          {feedback}
        </Alert>
        <Button onClick={onRestart} fullWidth autoFocus>
          {t('login.startOver')}
        </Button>
      </div>
    );
  }

  return (
    <div className="p-stack-sm" data-testid="second-factor">
      <h2 className="p-subtitle">{t('login.secondFactorTitle')}</h2>
      <p className="p-text-sm">{t('login.secondFactorIntro')}</p>
      {methods.includes('passkey') && (
        <Button
          onClick={() => passkey.run(undefined)}
          loading={passkey.pending}
          fullWidth
          autoFocus
          data-testid="second-factor-passkey"
        >
          {t('login.usePasskey')}
        </Button>
      )}
      {codeMethods.length > 0 && (
        <form onSubmit={submit} noValidate className="p-stack-sm">
          <TextField
            key={mode}
            label={mode === 'totp' ? t('login.totpCode') : t('login.recoveryCode')}
            name="code"
            inputMode={mode === 'totp' ? 'numeric' : 'text'}
            autoComplete="one-time-code"
            autoFocus={!methods.includes('passkey')}
            value={code}
            onChange={(event) => setCode(event.target.value)}
          />
          <Button
            type="submit"
            variant={methods.includes('passkey') ? 'light' : 'filled'}
            loading={verify.pending}
            fullWidth
          >
            {t('login.verify')}
          </Button>
        </form>
      )}
      {feedback && (
        <Alert color="red" role="alert" data-testid="login-error">
          {feedback}
        </Alert>
      )}
      <div className="p-group">
        {codeMethods.length > 1 && (
          <Button
            variant="subtle"
            size="compact"
            onClick={() => {
              setMode(mode === 'totp' ? 'recoveryCode' : 'totp');
              setCode('');
              setFeedback(null);
            }}
            data-testid="second-factor-switch"
          >
            {mode === 'totp' ? t('login.useRecoveryCode') : t('login.useTotp')}
          </Button>
        )}
        <Button variant="subtle" size="compact" onClick={onRestart}>
          {t('login.startOver')}
        </Button>
      </div>
    </div>
  );
}
