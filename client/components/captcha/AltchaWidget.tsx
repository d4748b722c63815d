import 'altcha/external';
import 'altcha/altcha.css';
import './altcha-theme.css';
import type { AltchaWidgetElement } from 'altcha';
import type {} from 'altcha/types/react';
import Pbkdf2Worker from 'altcha/workers/pbkdf2?worker';
import { useEffect, useRef } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { CAPTCHA_ALGORITHM } from '../../../common/api/auth';

/*
 * This module is loaded only when a captcha is shown (see Captcha.tsx), so the widget stays out of
 * the sign-in page's first load. The "external" build carries no inline worker: the PBKDF2 worker is
 * a file of our own origin, which the content security policy allows.
 */
globalThis.$altcha.algorithms.set(CAPTCHA_ALGORITHM, () => new Pbkdf2Worker());

const CHALLENGE_URL = '/api/captcha/challenge';
// No attribution footer (a link off the portal) and no code challenge (that needs ALTCHA's service).
const CONFIGURATION = JSON.stringify({ hideFooter: true, hideLogo: true, display: 'standard', type: 'checkbox' });

interface StateChange {
  state: string;
  payload: string | null;
}

export interface AltchaWidgetProps {
  onChange: (response: string | null) => void;
}

/** The altcha widget: it fetches a challenge, solves it in web workers and hands over the answer. */
export function AltchaWidget({ onChange }: AltchaWidgetProps) {
  const { t, i18n } = useTranslation();
  const widget = useRef<AltchaWidgetElement>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  // The widget reads its texts from a registry keyed by language; ours come from the portal's i18n.
  const language = i18n.language;
  globalThis.$altcha.i18n.set(language, {
    ...globalThis.$altcha.i18n.get('en'),
    label: t('captcha.label'),
    verifying: t('captcha.verifying'),
    verified: t('captcha.verified'),
    error: t('captcha.failed'),
    expired: t('captcha.expired'),
    loading: t('captcha.loading'),
    verificationRequired: t('captcha.required'),
    waitAlert: t('captcha.verifying'),
  });

  useEffect(() => {
    const element = widget.current;
    if (!element) return;
    const listener = (event: Event) => {
      const { state, payload } = (event as CustomEvent<StateChange>).detail;
      onChangeRef.current(state === 'verified' && payload ? payload : null);
    };
    element.addEventListener('statechange', listener);
    return () => element.removeEventListener('statechange', listener);
  }, []);

  return <altcha-widget ref={widget} challenge={CHALLENGE_URL} language={language} configuration={CONFIGURATION} />;
}
