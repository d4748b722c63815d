import { z } from 'zod/mini';
import { GRAPH_DATABASES, USE_CASES } from '../domain';
import { NewPassword, passwordFitsContext, REQUIRED, RequiredText } from './common';
import { NAME_PART_MAX } from './signup';

/**
 * The confirmation of a self-service sign-up (spec sections 2, 3 and 7; docs/decisions/067): what
 * the link shows, and the wizard's answers. The wizard's password step runs the same rules.
 */

const SEGMENTATION_INFO_MAX = 1000;

/** The key a confirmation link carries (/{locale}/sign-up/confirmation/{key}): base64url text. */
export const SignupKeyParam = z.object({
  key: z.string().check(z.minLength(1), z.maxLength(100), z.regex(/^[A-Za-z0-9_-]+$/, 'apiErrors.signup_invalid')),
});
export type SignupKeyParam = z.infer<typeof SignupKeyParam>;

/** What the confirmation page shows and prefills (step 3 splits `invitedFullName` at its first space). */
export const SignupPreview = z.object({
  email: z.string(),
  invitedFullName: z.string(),
  companyName: z.string(),
});
export type SignupPreview = z.infer<typeof SignupPreview>;

/** A choice left out is required (the wizard's steps say so); one outside the list keeps its own key. */
const choiceRequired = (issue: { input?: unknown }) =>
  issue.input === undefined || issue.input === null ? REQUIRED : undefined;

const confirmationFields = {
  firstName: RequiredText(NAME_PART_MAX),
  lastName: RequiredText(NAME_PART_MAX),
  password: NewPassword,
  confirmPassword: z.string(),
  useCase: z.enum(USE_CASES, { error: choiceRequired }),
  graphDB: z.enum(GRAPH_DATABASES, { error: choiceRequired }),
};

/** `confirmPassword` must repeat `password` (the API checks it too: the spec's payload carries both). */
const passwordsMatch = z.refine<{ password: string; confirmPassword: string }>(
  (values) => values.confirmPassword === values.password,
  {
    path: ['confirmPassword'],
    message: 'errors.passwordMismatch',
    // Compared even while the password breaks a rule, so both problems show at once.
    when: (payload) => {
      const value = payload.value as { password?: unknown; confirmPassword?: unknown } | undefined;
      return typeof value?.password === 'string' && typeof value.confirmPassword === 'string';
    },
  },
);

/**
 * Spec 3 "Confirmation" and spec 7 `POST /signup/{key}/confirm`; `segmentationInfo` (spec 7 names it
 * without its shape) is free text an integrator's sign-up form may send (a campaign, a referrer).
 */
export const SignupConfirmBody = z
  .object({
    ...confirmationFields,
    segmentationInfo: z.optional(z.string().check(z.trim(), z.maxLength(SEGMENTATION_INFO_MAX))),
  })
  .check(passwordsMatch);
export type SignupConfirmBody = z.infer<typeof SignupConfirmBody>;

/** The wizard's password step: its four fields, the names prefilled from the invitation. */
export const SignupPasswordStep = z
  .object({
    firstName: confirmationFields.firstName,
    lastName: confirmationFields.lastName,
    password: confirmationFields.password,
    confirmPassword: confirmationFields.confirmPassword,
  })
  .check(passwordsMatch);
export type SignupPasswordStep = z.infer<typeof SignupPasswordStep>;

/**
 * The password step of one sign-up: nor may the password be made of its address, the names typed or
 * the company (the server's context, decision 085).
 */
export const signupPasswordStepFor = (preview: Pick<SignupPreview, 'email' | 'companyName'>) =>
  SignupPasswordStep.check(
    passwordFitsContext<SignupPasswordStep>('password', (values) => ({
      email: preview.email,
      names: [values.firstName, values.lastName, preview.companyName],
    })),
  );

/** The customer just created, whose page opens next. */
export const SignupConfirmResult = z.object({ customerId: z.int() });
export type SignupConfirmResult = z.infer<typeof SignupConfirmResult>;
