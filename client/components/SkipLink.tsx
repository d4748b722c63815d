import { useTranslation } from '../i18n/use-translation';

/** Hidden until focused: keyboard users jump over the top bar to the page itself (`targetId`). */
export function SkipLink({ targetId }: { targetId: string }) {
  const { t } = useTranslation();
  return (
    <a
      href={`#${targetId}`}
      style={{ position: 'absolute', left: 8, top: 8, zIndex: 1000 }}
      className="skip-link"
      onClick={(event) => {
        event.preventDefault();
        document.getElementById(targetId)?.focus();
      }}
    >
      {t('app.skipToContent')}
    </a>
  );
}
