import { z } from 'zod/mini';
import { LOCALES } from '../roles';
import { Email, RequiredText } from './common';

/**
 * Self-service sign-up (spec sections 2, 3 and 7; docs/decisions/067): the form of /sign-up, which
 * runs the same schema. The confirmation's schemas are in ./signup-confirmation.ts: the sign-up page
 * is one of the light pages (decision 024), and what it imports must not reach the application's
 * modules (common/domain.ts's lists live in one of the application's chunks).
 */

/** A first or a last name; the account's full name is both, with a space between. */
export const NAME_PART_MAX = 100;
const COMPANY_NAME_MAX = 200;
const JOB_TITLE_MAX = 200;

/** Spec 3 "Self-service sign-up": all five fields required (spec 5); `locale`, the page's language. */
export const SignupBody = z.object({
  email: Email,
  firstName: RequiredText(NAME_PART_MAX),
  lastName: RequiredText(NAME_PART_MAX),
  companyName: RequiredText(COMPANY_NAME_MAX),
  jobTitle: RequiredText(JOB_TITLE_MAX),
  /** the language of the page the form was sent from: the mail's and the future account's */
  locale: z.optional(z.enum(LOCALES)),
});
export type SignupBody = z.infer<typeof SignupBody>;
