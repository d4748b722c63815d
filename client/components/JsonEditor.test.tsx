// @vitest-environment jsdom
import { MantineProvider } from '@mantine/core';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { TranslatorProvider } from '../i18n/use-translation';
import { describe, expect, it, vi } from 'vitest';
import { createI18n } from '../i18n';
import { JsonEditor, parseProblem } from './JsonEditor';

function renderEditor(props: Partial<Parameters<typeof JsonEditor>[0]> = {}) {
  const onChange = vi.fn();
  function Harness() {
    const [value, setValue] = useState(props.value ?? '{"seats": 5}');
    return (
      <>
        <JsonEditor
          label="Licence data"
          {...props}
          value={value}
          onChange={(text) => {
            onChange(text);
            setValue(text);
          }}
        />
        <button type="button" onClick={() => setValue('{"reset": true}')}>
          reset
        </button>
      </>
    );
  }
  const result = render(
    <TranslatorProvider translator={createI18n('en')}>
      <MantineProvider env="test">
        <Harness />
      </MantineProvider>
    </TranslatorProvider>,
  );
  return { ...result, onChange };
}

/** The editor's text area, once its chunk has loaded. */
const content = () =>
  screen.findByRole('textbox', { name: 'Licence data' }, { timeout: 5000 }) as Promise<HTMLTextAreaElement>;

/** Types over the whole text, as the browser reports an edit of the text area. */
const typeText = (box: HTMLTextAreaElement, text: string) => fireEvent.input(box, { target: { value: text } });

describe('JsonEditor', () => {
  it('shows a loader while the editor loads, then a text area named by its label holding the value', async () => {
    renderEditor();
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    const box = await content();
    expect(box.tagName).toBe('TEXTAREA');
    expect(box.value).toBe('{"seats": 5}');
    expect(box.getAttribute('aria-invalid')).toBe('false');
    expect(box.hasAttribute('aria-describedby')).toBe(false);
    expect(screen.queryByTestId('json-editor-loader')).toBeNull();
  });

  it('highlights JSON syntax', async () => {
    renderEditor({ value: '{"seats": 5, "name": "x"}' });
    await content();
    // the highlighter wraps tokens in classed spans: a string value is one kind, a number another
    const spans = [...screen.getByTestId('json-editor').querySelectorAll('span')].map((span) => [
      span.textContent,
      span.className,
    ]);
    const classOf = (text: string) => spans.find(([t]) => t === text)?.[1];
    expect(classOf('"x"')).toBeTruthy();
    expect(classOf('5')).toBeTruthy();
    expect(classOf('"x"')).not.toBe(classOf('5'));
  });

  it('says where the text stops being JSON, and stops saying it once it is JSON again', async () => {
    renderEditor({ value: '{"seats": 5}' });
    const box = await content();
    typeText(box, '{\n  "seats": }');
    const problem = screen.getByTestId('json-editor-problem');
    await waitFor(() => expect(problem.textContent).toBe('The text stops being valid JSON at line 2, column 12.'));
    typeText(box, '{"seats": 3}');
    await waitFor(() => expect(problem.textContent).toBe(''));
  });

  it('finds the line and column of a parse error', () => {
    expect(parseProblem('{"a": 1}')).toBeNull();
    expect(parseProblem('   ')).toBeNull();
    expect(parseProblem('{"a": 1,\n "b": }')).toEqual({ line: 2, column: 7 });
    expect(parseProblem('{"a": 1,}')).toEqual({ line: 1, column: 9 });
    expect(parseProblem('{"a": 1} // note')).toEqual({ line: 1, column: 10 });
    expect(parseProblem('{"a": 1')).toEqual({ line: 1, column: 8 });
  });

  it('reports edits and takes a value set from outside', async () => {
    const { onChange } = renderEditor();
    const box = await content();
    typeText(box, '{"seats": 5, "x": 1}');
    expect(onChange).toHaveBeenLastCalledWith('{"seats": 5, "x": 1}');
    fireEvent.click(screen.getByRole('button', { name: 'reset' }));
    await waitFor(() => expect(box.value).toBe('{"reset": true}'));
    // a value set from outside is not reported back as an edit
    expect(onChange.mock.calls).toEqual([['{"seats": 5, "x": 1}']]);
  });

  it('marks itself invalid and is described by its error', async () => {
    renderEditor({ error: 'Must be valid JSON.' });
    const box = await content();
    expect(box.getAttribute('aria-invalid')).toBe('true');
    const describedBy = box.getAttribute('aria-describedby')!;
    expect(document.getElementById(describedBy)?.textContent).toBe('Must be valid JSON.');
  });

  it('leaves Tab to the browser, so the focus moves on', async () => {
    renderEditor();
    const box = await content();
    box.focus();
    // a key the editor handles is cancelled; Tab is not, and the text is unchanged
    expect(fireEvent.keyDown(box, { key: 'Tab', code: 'Tab', keyCode: 9 })).toBe(true);
    expect(box.value).toBe('{"seats": 5}');
  });

  it('is the form control of its label, so a click on the label takes the user into it', async () => {
    renderEditor();
    const box = await content();
    expect(screen.getByLabelText('Licence data')).toBe(box);
  });
});
