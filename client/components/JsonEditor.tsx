import { Box, Center, Input, Loader, VisuallyHidden } from '@mantine/core';
import { lazy, Suspense, useEffect, useId, useState } from 'react';
import { type ParseError, parse } from 'jsonc-parser';
import { useTranslation } from '../i18n/use-translation';

// The editor is fetched only when one is first shown (a modal with one opens): it stays out of the
// app's main bundle (docs/decisions/034).
const PrismJson = lazy(() => import('./json-editor/PrismJson'));

export interface JsonEditorProps {
  /** The JSON text. */
  value: string;
  onChange: (text: string) => void;
  /** The visible label, also the editor's accessible name. */
  label: string;
  /** Shown below the editor and announced with it. */
  error?: string | null;
  /** Height of the empty editor, a CSS length (the editor grows with its text). */
  minHeight?: string;
  /** Shown while the editor is empty. */
  placeholder?: string;
  required?: boolean;
  /** The text is shown, selectable and copied, not changed. */
  readOnly?: boolean;
}

/**
 * A JSON text field: a real text area with the JSON highlighted as one types, brackets matched, and
 * where the text stops being JSON said below it. It is a field like the others for a form: its label
 * names it, its error describes it, `aria-invalid` marks it, so a refused submit focuses it
 * (useFocusFirstInvalid). Tab moves the focus on.
 */
export function JsonEditor({
  value,
  onChange,
  label,
  error,
  minHeight = '10rem',
  placeholder,
  required,
  readOnly,
}: JsonEditorProps) {
  const { t } = useTranslation();
  const id = useId();
  const inputId = `${id}-input`;
  const errorId = `${id}-error`;
  const problem = useParseProblem(value);
  return (
    <Box>
      <Input.Label htmlFor={inputId} required={required}>
        {label}
      </Input.Label>
      <Box miw={0}>
        <Suspense
          fallback={
            <Center
              mih={minHeight}
              role="status"
              data-testid="json-editor-loader"
              bd="1px solid var(--mantine-color-default-border)"
              style={{ borderRadius: 'var(--mantine-radius-sm)' }}
            >
              <Loader size="sm" aria-hidden />
              <VisuallyHidden>{t('app.loading')}</VisuallyHidden>
            </Center>
          }
        >
          <PrismJson
            value={value}
            onChange={onChange}
            inputId={inputId}
            errorId={error ? errorId : undefined}
            invalid={Boolean(error)}
            minHeight={minHeight}
            placeholderText={placeholder}
            required={required}
            readOnly={readOnly}
          />
        </Suspense>
      </Box>
      {error ? (
        <Input.Error id={errorId} mt={5}>
          {error}
        </Input.Error>
      ) : null}
      {/* Where the text stops being JSON, as one types (the form's own error, once shown, says the rest). */}
      <Input.Description aria-live="polite" mt={problem && !error ? 5 : 0} data-testid="json-editor-problem">
        {problem && !error ? t('jsonEditor.parseError', problem) : null}
      </Input.Description>
    </Box>
  );
}

/**
 * Where a text stops being JSON: the line and column (1-based) of the first problem, found by
 * jsonc-parser (strict JSON: no comments, no trailing commas); null for JSON or an empty text.
 */
export function parseProblem(text: string): { line: number; column: number } | null {
  if (!text.trim()) return null;
  const errors: ParseError[] = [];
  parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  if (errors.length === 0) return null;
  const before = text.slice(0, errors[0].offset).split('\n');
  return { line: before.length, column: before[before.length - 1].length + 1 };
}

function useParseProblem(text: string) {
  const [problem, setProblem] = useState<{ line: number; column: number } | null>(null);
  useEffect(() => {
    const timer = setTimeout(() => setProblem(parseProblem(text)), 300);
    return () => clearTimeout(timer);
  }, [text]);
  return problem;
}
