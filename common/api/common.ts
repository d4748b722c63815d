import { z } from 'zod';
import { DEFAULT_PAGE_LENGTH, MAX_PAGE_LENGTH } from '../pagination';
import { checkPassword } from '../password';

export const Email = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .pipe(z.email({ message: 'email.invalid' }));

/** A password that follows the rule; the message is the first failing rule's key. */
export const NewPassword = z.string().superRefine((value, ctx) => {
  const problem = checkPassword(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

export const PageQuery = z.object({
  pageOffset: z.coerce.number().int().min(0).default(0),
  pageLength: z.coerce.number().int().min(1).max(MAX_PAGE_LENGTH).default(DEFAULT_PAGE_LENGTH),
  filter: z.string().trim().max(200).optional(),
});

export const IdParam = z.object({ id: z.coerce.number().int().positive() });

export const Ok = z.object({ ok: z.literal(true) });
