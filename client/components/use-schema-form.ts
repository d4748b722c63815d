import { schemaResolver, type UseFormInput, type UseFormReturnType, useForm } from '@mantine/form';
import { useEffect } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { fieldErrorsOf, translateFieldErrors } from './forms';
import { stopKeepingTypedValues, takeTypedValue } from './typed-before-hydration';
import { useFocusFirstInvalid } from './use-focus-first-invalid';

/** A schema of common/ (zod implements Standard Schema), the one the server checks the request with. */
export type FormSchema = Parameters<typeof schemaResolver>[0];

interface SchemaFormOptions<Values extends Record<string, unknown>> {
  initialValues: Values;
  /**
   * The schema the values must pass before they are sent. A function of the values when the form's
   * fields decide which one applies (creating or editing, an e-mail changed or not).
   */
  schema: FormSchema | ((values: Values) => FormSchema);
  /** What the schema checks, when the form holds more than the request (a select shown read-only). */
  select?: (values: Values) => unknown;
  /** Other @mantine/form options (validateInputOnBlur, onValuesChange...). */
  options?: Omit<UseFormInput<Values>, 'initialValues' | 'validate' | 'mode'>;
}

interface SchemaForm<Values extends Record<string, unknown>> {
  form: UseFormReturnType<Values>;
  /** Goes on the <form>: the first invalid field is found in it and focused. */
  ref: React.RefObject<HTMLFormElement | null>;
  /** The form's onSubmit: checks the schema, focuses the first invalid field, else calls `send`. */
  onSubmit: (send: (values: Values) => void) => (event?: React.FormEvent<HTMLFormElement>) => void;
  /** Shows a failed call's `details` on the fields they name and focuses the first; what was typed stays. */
  showFieldErrors: (error: unknown) => void;
}

/**
 * The form pattern every screen uses (docs/decisions/019): @mantine/form keeps the values (read from
 * the event when it fires, never later in a state updater), the common/ schema checks them with the
 * server's own rules and message keys, and a refused submit moves focus to the first invalid field,
 * so a screen reader reads its label and error.
 */
export function useSchemaForm<Values extends Record<string, unknown>>({
  initialValues,
  schema,
  select,
  options,
}: SchemaFormOptions<Values>): SchemaForm<Values> {
  const { t } = useTranslation();
  const { ref, focusFirstInvalid } = useFocusFirstInvalid();
  const form = useForm<Values>({
    ...options,
    mode: 'controlled',
    initialValues,
    // Every field with an error says so to assistive technology (PasswordInput does not by itself),
    // which is also how the first invalid field is found.
    enhanceGetInputProps: ({ inputProps }) => ({ 'aria-invalid': Boolean(inputProps.error) }),
    validate: (values) => {
      const applied = typeof schema === 'function' ? schema(values) : schema;
      return translateFieldErrors(schemaResolver(applied, { sync: true })(select ? select(values) : values), t);
    },
  });
  // A field typed into on a page rendered at build time, before the script ran, keeps what was typed.
  useEffect(() => {
    for (const name of Object.keys(initialValues)) {
      const value = takeTypedValue(name);
      if (value !== undefined) form.setFieldValue(name, value as never);
    }
    stopKeepingTypedValues();
    // once, on mount: later renders have the form's own values
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return {
    form,
    ref,
    onSubmit: (send) => form.onSubmit((values) => send(values), focusFirstInvalid),
    showFieldErrors: (error) => {
      form.setErrors(fieldErrorsOf(error, t));
      focusFirstInvalid();
    },
  };
}
