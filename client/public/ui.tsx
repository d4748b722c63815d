import {
  type ButtonHTMLAttributes,
  type InputHTMLAttributes,
  type ReactNode,
  useId,
  useSyncExternalStore,
} from 'react';
import { useTranslation } from '../i18n/use-translation';
import { LOADER_DELAY_MS } from '../../common/constants';
import { useDelayedVisible } from '../components/use-delayed-visible';

/*
 * The few widgets the sign-in pages need, drawn by public.css in the theme's colours and sizes, so
 * that these pages look like the rest of the portal without carrying Mantine (decision 024).
 */

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'value'> & {
  label: string;
  /** A hint under the label (the password rules). */
  description?: string;
  error?: ReactNode;
  value?: string;
};

/** A labelled input, its hint and its error, tied together for assistive technology. */
export function TextField({ label, description, error, id, className, ...input }: InputProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const descriptionId = `${inputId}-description`;
  const errorId = `${inputId}-error`;
  const describedBy = [description && descriptionId, error && errorId].filter(Boolean).join(' ');
  return (
    <div className={['p-field', className].filter(Boolean).join(' ')}>
      <label className="p-label" htmlFor={inputId}>
        {label}
      </label>
      {description && (
        <p className="p-description" id={descriptionId}>
          {description}
        </p>
      )}
      <input
        className="p-input"
        id={inputId}
        aria-describedby={describedBy || undefined}
        data-error={error ? true : undefined}
        {...input}
      />
      {error && (
        <p className="p-error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: 'filled' | 'light' | 'subtle';
  size?: 'md' | 'compact';
  loading?: boolean;
  fullWidth?: boolean;
};

const noSubscription = () => () => {};

/**
 * False in the markup rendered at build time and while the script takes it over, true from then on:
 * `useSyncExternalStore` gives the server snapshot during hydration and the client's after.
 */
function useScriptReady(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

/** A button; while `loading` it is disabled and shows a spinner in place of its text. */
export function Button({
  variant = 'filled',
  size = 'md',
  loading = false,
  fullWidth = false,
  disabled,
  type = 'button',
  children,
  ...props
}: ButtonProps) {
  // A form rendered at build time (decision 024) submits itself if its button is pressed before the
  // script has taken it over: the browser would send the fields in the address (a password in the
  // URL, the server's log and the history) and reload an empty form. Its submit button waits.
  const ready = useScriptReady();
  return (
    <button
      type={type}
      className="p-button"
      data-variant={variant}
      data-size={size}
      data-full-width={fullWidth || undefined}
      data-loading={loading || undefined}
      disabled={disabled || loading || (type === 'submit' && !ready)}
      {...props}
    >
      <span className="p-button-label">{children}</span>
      {loading && <span className="p-spinner p-button-spinner" aria-hidden="true" />}
    </button>
  );
}

export function Alert({
  color,
  role,
  children,
  ...props
}: {
  color: 'red' | 'teal';
  role?: 'alert' | 'status';
  children: ReactNode;
  'data-testid'?: string;
}) {
  return (
    <div className="p-alert" data-color={color} role={role} {...props}>
      {children}
    </div>
  );
}

/** A spinner with its text for assistive technologies, e.g. while the captcha loads. */
export function Spinner({ label }: { label: string }) {
  return <span className="p-spinner" role="status" aria-label={label} />;
}

/** Spec 9: the loader appears after 200 ms, so fast answers do not flash a spinner. */
export function DelayedLoader({ delay = LOADER_DELAY_MS }: { delay?: number }) {
  const { t } = useTranslation();
  if (!useDelayedVisible(delay)) return null;
  return (
    <div className="p-loader" role="status" data-testid="loader">
      <span className="p-spinner p-spinner-large" aria-hidden="true" />
      <span className="p-hidden">{t('app.loading')}</span>
    </div>
  );
}

/** The bordered box each sign-in page sits in. */
export function Card({ children }: { children: ReactNode }) {
  return <div className="p-card p-stack">{children}</div>;
}
