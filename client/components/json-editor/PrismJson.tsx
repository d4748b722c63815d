import 'prism-code-editor/layout.css';
import 'prism-code-editor/themes/github-light.css';
import './PrismJson.css';
import 'prism-code-editor/prism/languages/json';
import 'prism-code-editor/languages/json';
import { createEditor, type PrismEditor } from 'prism-code-editor';
import { defaultCommands, editHistory, setIgnoreTab } from 'prism-code-editor/commands';
import { highlightBracketPairs } from 'prism-code-editor/highlight-brackets';
import { matchBrackets } from 'prism-code-editor/match-brackets';
import { useEffect, useRef } from 'react';
import type { JsonEditorProps } from '../JsonEditor';

// Tab and Shift+Tab move the focus on, as in any field: keyboard users are never trapped (the
// editor's Ctrl+M lets someone who wants Tab to indent turn it on).
setIgnoreTab(true);

interface JsonEditorViewProps extends Pick<JsonEditorProps, 'value' | 'onChange' | 'required' | 'readOnly'> {
  inputId: string;
  errorId?: string;
  invalid: boolean;
  minHeight: string;
  placeholderText?: string;
}

/** The attributes that make the editor's text area a form field like the others. */
function describe(textarea: HTMLTextAreaElement, props: JsonEditorViewProps) {
  textarea.id = props.inputId;
  textarea.setAttribute('aria-invalid', String(props.invalid));
  if (props.errorId) textarea.setAttribute('aria-describedby', props.errorId);
  else textarea.removeAttribute('aria-describedby');
  if (props.placeholderText) textarea.placeholder = props.placeholderText;
  textarea.required = Boolean(props.required);
}

/**
 * The view behind JsonEditor (prism-code-editor, docs/decisions/034): a real `<textarea>` with the
 * JSON highlighted under it, bracket matching, indentation and undo history. Loaded on its own (a
 * separate chunk) when an editor is first shown.
 */
export default function PrismJson(props: JsonEditorViewProps) {
  const { value, onChange, minHeight, readOnly = false } = props;
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<PrismEditor | null>(null);
  const onChangeRef = useRef(onChange);
  const settingValue = useRef(false);
  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);

  // One editor for the component's life; value and attribute changes are applied to it below.
  useEffect(() => {
    // the first text is the value given, not an edit
    settingValue.current = true;
    const created = createEditor(
      host.current!,
      {
        language: 'json',
        value,
        lineNumbers: true,
        // A long line wraps rather than widening the modal past a phone's screen.
        wordWrap: true,
        readOnly,
        onUpdate: (text) => {
          if (!settingValue.current) onChangeRef.current(text);
        },
      },
      matchBrackets(),
      highlightBracketPairs(),
      defaultCommands(),
      editHistory(),
    );
    settingValue.current = false;
    created.textarea.setAttribute('aria-multiline', 'true');
    created.textarea.spellcheck = false;
    editor.current = created;
    return () => {
      created.remove();
      editor.current = null;
    };
    // created once; the effects below keep it in step with the props
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // A value set from outside (a reset, an example loaded) replaces the text; the editor's own edits
  // come back equal and change nothing. It is not reported back as an edit.
  useEffect(() => {
    const current = editor.current;
    if (current && current.value !== value) {
      settingValue.current = true;
      try {
        current.setOptions({ value });
      } finally {
        settingValue.current = false;
      }
    }
  }, [value]);

  // read-only: the text is selected and copied, never changed (the editor marks it aria-readonly)
  useEffect(() => {
    const current = editor.current;
    if (current && Boolean(current.options.readOnly) !== readOnly) current.setOptions({ readOnly });
  }, [readOnly]);

  useEffect(() => {
    if (editor.current) describe(editor.current.textarea, props);
  });

  return <div ref={host} data-testid="json-editor" className="json-editor" style={{ minHeight }} />;
}
