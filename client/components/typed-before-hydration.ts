/**
 * What a visitor typed into a page rendered at build time before its script took over (decision 024),
 * by field name. Hydration gives a form its initial values, which would wipe what was typed; the
 * form picks these up once mounted instead (useSchemaForm).
 *
 * Typing goes on while React hydrates (it yields to the browser between pieces of work), and a
 * field filled then is reset to the form's initial value when hydration commits. So besides what the
 * fields hold when hydration starts, every input until the form has mounted is noted too.
 */
const typed = new Map<string, string>();
let listening: { root: ParentNode; listener: (event: Event) => void } | null = null;

const isTextField = (target: EventTarget | null): target is HTMLInputElement =>
  target instanceof HTMLInputElement &&
  Boolean(target.name) &&
  target.type !== 'checkbox' &&
  target.type !== 'radio' &&
  target.type !== 'hidden';

/**
 * Notes the text fields of `root` whose value differs from the markup's, and every input into one
 * from then on until `stopKeepingTypedValues`: call it just before hydrating.
 */
export function keepTypedValues(root: ParentNode): void {
  for (const input of root.querySelectorAll<HTMLInputElement>('input[name]')) {
    if (isTextField(input) && input.value !== input.defaultValue) typed.set(input.name, input.value);
  }
  stopListening();
  const listener = (event: Event) => {
    if (isTextField(event.target)) typed.set(event.target.name, event.target.value);
  };
  root.addEventListener('input', listener, true);
  listening = { root, listener };
}

function stopListening() {
  listening?.root.removeEventListener('input', listening.listener, true);
  listening = null;
}

/** The value typed into the field `name` before the form took over, handed out once. */
export function takeTypedValue(name: string): string | undefined {
  const value = typed.get(name);
  typed.delete(name);
  return value;
}

/** The form has taken over its fields: what is typed from now on is the form's own. */
export function stopKeepingTypedValues(): void {
  stopListening();
  typed.clear();
}
