import { useEffect, useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { usePublicConfig } from '../../public/session';
import { Alert, Spinner } from '../../public/ui';
import { Recaptcha } from './Recaptcha';

interface CaptchaProps {
  /** The response to send as `recaptchaResponse`, or null while there is none. */
  onChange: (response: string | null) => void;
}

/** Remount (change its `key`) to get a fresh challenge: the server accepts each answer once. */
export function Captcha({ onChange }: CaptchaProps) {
  const { t } = useTranslation();
  const config = usePublicConfig();
  if (config.error !== undefined) {
    return (
      <Alert color="red" role="alert" data-testid="captcha">
        {t('captcha.recaptchaFailed')}
      </Alert>
    );
  }
  if (!config.data) return <Spinner label={t('captcha.loading')} />;
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

type Widget = (typeof import('./ProofOfWork'))['ProofOfWork'];
let widgetModule: Promise<Widget> | null = null;

/** The widget and its solver load with the first captcha shown, not with the page. */
function loadWidget(): Promise<Widget> {
  widgetModule ??= import('./ProofOfWork').then((module) => module.ProofOfWork);
  // A failed download may be retried by the next captcha shown.
  widgetModule.catch(() => {
    widgetModule = null;
  });
  return widgetModule;
}

function BuiltinCaptcha({ onChange }: CaptchaProps) {
  const { t } = useTranslation();
  const [widget, setWidget] = useState<{ Component: Widget } | 'failed' | null>(null);

  useEffect(() => {
    let current = true;
    loadWidget().then(
      (Component) => current && setWidget({ Component }),
      () => current && setWidget('failed'),
    );
    return () => {
      current = false;
    };
  }, []);

  if (widget === 'failed') return <Alert color="red">{t('captcha.loadFailed')}</Alert>;
  if (!widget) return <Spinner label={t('captcha.loading')} />;
  return <widget.Component onChange={onChange} />;
}
