/**
 * What a visitor typed into a page rendered at build time before its script took over (decision 024),
 * by field name. Hydration gives a form its initial values, which would wipe what was typed; the
 * form picks these up once mounted instead (useSchemaForm).
 */
const typed = new Map<string, string>();

/** Notes the text fields of `root` whose value differs from the markup's: call it just before hydrating. */
export function keepTypedValues(root: ParentNode): void {
  for (const input of root.querySelectorAll<HTMLInputElement>('input[name]')) {
    if (input.type === 'checkbox' || input.type === 'radio' || input.type === 'hidden') continue;
    if (input.value !== input.defaultValue) typed.set(input.name, input.value);
  }
}

/** The value typed into the field `name` before hydration, handed out once. */
export function takeTypedValue(name: string): string | undefined {
  const value = typed.get(name);
  typed.delete(name);
  return value;
}
