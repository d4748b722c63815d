import { z } from 'zod/mini';
import { INVITATION_STATUSES } from '../domain';
import { LOCALES, MEMBER_ROLES } from '../roles';
import { DEFAULT_PAGE_LENGTH, MAX_PAGE_LENGTH } from '../pagination';
import { InvitationAbilities } from './abilities';
import { Email, IdParam, listOf, MAX_ID, PageQuery, RequiredText, wholeNumber } from './common';

/**
 * A pending invitation as the members section lists it (spec section 3, "Invitation"): `status` is
 * expired once `expiresAt` has passed. `key` and `invitationLink` (the link the mail carries) come
 * only to a caller who may copy the link (admins, spec section 6), and only while it works: not for
 * an expired invitation (spec section 4), nor for one whose key was sealed under another server
 * secret (docs/decisions/087).
 */
export const Invitation = z.object({
  id: z.int(),
  status: z.enum(INVITATION_STATUSES),
  customerId: z.int(),
  customerName: z.string(),
  role: z.enum(MEMBER_ROLES),
  inviterFullName: z.nullable(z.string()),
  invitedFullName: z.string(),
  invitedEmail: z.string(),
  /** true when no account has the invited address yet: accepting creates one */
  newUser: z.boolean(),
  locale: z.enum(LOCALES),
  sentAt: z.string(),
  expiresAt: z.string(),
  key: z.optional(
    z
      .string()
      .check(
        z.describe(
          'The invitation key (the credential its link carries): only to admins, and only while the link works (not expired)',
        ),
      ),
  ),
  invitationLink: z.optional(
    z
      .string()
      .check(
        z.describe(
          'The link the invitation mail carries: only to admins (who copy it), and only while it works (not expired)',
        ),
      ),
  ),
  /** what the caller may do with this invitation (server/modules/invitations/policy.ts) */
  can: InvitationAbilities,
});
export type Invitation = z.infer<typeof Invitation>;

/** `offset` and `total` (the count of every matching invitation) page the list. */
export const InvitationList = listOf(Invitation);
export type InvitationList = z.infer<typeof InvitationList>;

/** Orders of the invitations list: newest first (the default), by invited name or by e-mail address. */
export const INVITATION_SORTS = ['newest', 'name', 'email'] as const;
export type InvitationSort = (typeof INVITATION_SORTS)[number];

/**
 * `GET /api/invitations[?customerId][&pageOffset&pageLength&filter&sort]` (spec section 7, customerId
 * optional; docs/decisions/030): with customerId, that customer's pending invitations, all of them
 * unless a page length is given; without it, those of every customer where the caller may see the
 * team, ten at a time unless a page length is given. `filter` keeps those whose invited name or
 * e-mail address contains it, whatever the case.
 */
export const InvitationListQuery = z.object({
  customerId: z.optional(IdParam.shape.id),
  pageOffset: z._default(wholeNumber(0, MAX_ID), 0),
  pageLength: z.optional(wholeNumber(1, MAX_PAGE_LENGTH)),
  filter: PageQuery.shape.filter,
  sort: z._default(z.enum(INVITATION_SORTS), 'newest'),
});
export type InvitationListQuery = z.infer<typeof InvitationListQuery>;

/** The page length of the list without a customer when none is asked for. */
export const INVITATIONS_PAGE_LENGTH = DEFAULT_PAGE_LENGTH;

export const DEFAULT_INVITATION_ROLE = 'technicalContact';

/**
 * `POST /api/invitations` (spec sections 5 and 7): e-mail, full name and role required; role
 * technicalContact and locale en by default. Only an account executive or an admin may choose the
 * locale: the others leave it out.
 */
export const CreateInvitationBody = z.strictObject({
  invitedEmail: Email,
  invitedFullName: RequiredText(200),
  targetCustomer: z.int().check(z.positive()),
  targetRole: z._default(z.enum(MEMBER_ROLES), DEFAULT_INVITATION_ROLE),
  locale: z.optional(z.enum(LOCALES)),
});
export type CreateInvitationBody = z.infer<typeof CreateInvitationBody>;

export const InvitationLink = z.object({ invitationLink: z.string() });
export type InvitationLink = z.infer<typeof InvitationLink>;
