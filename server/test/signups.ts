import crypto from 'node:crypto';
import type { Locale } from '../../common/roles';
import type { DB } from '../db';
import { insertInvitation } from '../modules/customers/store';
import { issueInvitationKey } from '../modules/invitations/keys';

/** Test data of self-service sign-ups (docs/decisions/067), written through the modules' repositories. */

export interface SignupProps {
  email?: string;
  firstName?: string;
  lastName?: string;
  companyName?: string;
  jobTitle?: string;
  locale?: Locale;
  expiresAt?: string;
}

/** A pending sign-up of a fresh address (unless given) as `POST /api/signup` stores it, with its key. */
export async function createSignup(db: DB, serverSecret: string, props: SignupProps = {}) {
  const email = props.email ?? `signup-${crypto.randomBytes(4).toString('hex')}@example.com`;
  const firstName = props.firstName ?? 'Sam';
  const lastName = props.lastName ?? 'Signup';
  const companyName = props.companyName ?? `Signup Company ${crypto.randomBytes(3).toString('hex')}`;
  const { key, keySealed } = issueInvitationKey(serverSecret);
  const now = new Date();
  const { id } = await insertInvitation(db, {
    key,
    keySealed,
    customerId: null,
    inviterId: null,
    invitedEmail: email,
    invitedFullName: `${firstName} ${lastName}`,
    role: 'businessOwner',
    locale: props.locale ?? 'en',
    state: 'pending',
    selfService: 1,
    signupData: JSON.stringify({ firstName, lastName, companyName, jobTitle: props.jobTitle ?? 'CTO' }),
    createdAt: now.toISOString(),
    expiresAt: props.expiresAt ?? new Date(now.getTime() + 7 * 24 * 3600 * 1000).toISOString(),
    acceptedAt: null,
    acceptedUserId: null,
  });
  return { id, key, email, companyName };
}
