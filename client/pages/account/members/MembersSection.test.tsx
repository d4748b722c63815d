// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Customer } from '../../../../common/api/customers';
import type { Invitation } from '../../../../common/api/invitations';
import type { Member } from '../../../../common/api/members';
import type { Role } from '../../../../common/roles';
import { toastHistory } from '../../../components/notify';
import { customerCan, invitationCan, memberCan } from '../../../test/abilities';
import { apiError, type FakeHandler, fakeApi } from '../../../test/fake-api';
import { adminProfile, CurrentLocation, renderPage } from '../../../test/render';
import { MembersSection } from '../sections/MembersSection';

const ME = 1;
const customer = (yourRole: Role): Customer => ({
  id: 7,
  name: 'Acme',
  customerKey: 'ACME000001',
  selfService: false,
  paymentStatus: null,
  accountExecutive: null,
  billingEmail: null,
  yourRole,
  yourMembershipId: yourRole === 'admin' ? null : 70,
  yourSettings: null,
  can: customerCan(yourRole),
});
type MemberRow = Omit<Member, 'can'>;
type InvitationRow = Omit<Invitation, 'can'>;
const member = (id: number, userId: number, fullname: string, props: Partial<MemberRow> = {}): MemberRow => ({
  id,
  userId,
  fullname,
  email: `${fullname.toLowerCase().replace(' ', '.')}@acme.test`,
  role: 'technicalContact',
  status: 'enabled',
  ...props,
});
const invitation = (id: number, status: Invitation['status'], invitedFullName: string): InvitationRow => ({
  id,
  status,
  customerId: 7,
  customerName: 'Acme',
  role: 'endUser',
  inviterFullName: 'Alice Martin',
  invitedFullName,
  invitedEmail: `${invitedFullName.toLowerCase().replace(' ', '.')}@acme.test`,
  newUser: true,
  locale: 'en',
  sentAt: '2026-11-20T10:00:00.000Z',
  expiresAt: '2026-11-27T10:00:00.000Z',
});

const members = [
  member(70, ME, 'Alice Martin', { role: 'businessOwner' }),
  member(71, 2, 'Bob Tech'),
  member(72, 3, 'Dora Gone', { status: 'disabled', role: 'endUser' }),
  member(73, 4, 'Ann Exec', { role: 'accountExecutive' }),
];
const invitations = [invitation(80, 'pending', 'Pia Pending'), invitation(81, 'expired', 'Eve Expired')];

/** Members as the server lists them to the signed-in user (ME), who holds `role` in the customer. */
const membersSeenBy = (role: Role, rows: MemberRow[]): Member[] =>
  rows.map((m) => ({ ...m, can: memberCan(role, { role: m.role, self: m.userId === ME }) }));
/** Invitations as the server lists them to a user holding `role` in the customer. */
const invitationsSeenBy = (role: Role, rows: InvitationRow[]): Invitation[] =>
  rows.map((i) => ({ ...i, can: invitationCan(role) }));

/** The answer an admin gets: each pending invitation with its key and link (decision 087). */
const withLinks = (role: Role): Invitation[] =>
  invitationsSeenBy(role, invitations).map((i) =>
    i.status === 'pending'
      ? { ...i, key: `key-${i.id}`, invitationLink: `http://portal.test/en/invitation/key-${i.id}` }
      : i,
  );
const listed = (data: Invitation[]) => ({
  status: 200,
  body: { data, offset: 0, total: data.length, totalCapped: false },
});

function open(role: Role, routes: Record<string, FakeHandler> = {}, path = '/en') {
  const api = fakeApi({
    'GET /api/customers/7': () => ({ status: 200, body: customer(role) }),
    'GET /api/customers/7/members': () => ({
      status: 200,
      body: { data: membersSeenBy(role, members), offset: 0, total: members.length, totalCapped: false },
    }),
    'GET /api/invitations': () => ({
      status: 200,
      body: { data: invitationsSeenBy(role, invitations), offset: 0, total: invitations.length, totalCapped: false },
    }),
    ...routes,
  });
  renderPage(
    <>
      <MembersSection customer={customer(role)} />
      <CurrentLocation />
    </>,
    { profile: { ...adminProfile, id: ME }, path },
  );
  return api;
}

const rowOf = async (name: string) => (await screen.findByText(name)).closest('tr') as HTMLElement;
const options = (label: string) =>
  Array.from((screen.getByLabelText(label) as HTMLSelectElement).options).map((o) => o.value);

afterEach(() => {
  vi.unstubAllGlobals();
  toastHistory.clear();
});

describe('MembersSection', () => {
  it('lists members and pending or expired invitations, with their status', async () => {
    const api = open('businessOwner');
    expect(within(await rowOf('Bob Tech')).getByText('Technical contact')).toBeTruthy();
    expect(within(await rowOf('Dora Gone')).getByText('Disabled')).toBeTruthy();
    expect(within(await rowOf('Pia Pending')).getByText('Pending')).toBeTruthy();
    expect(within(await rowOf('Eve Expired')).getByText('Expired')).toBeTruthy();
    expect(api.calls('GET /api/invitations')[0].query.get('customerId')).toBe('7');
  });

  it('offers no edit action on one’s own row, nor on a role the editor could not invite', async () => {
    open('businessOwner');
    expect(within(await rowOf('Alice Martin')).queryByTestId('member-edit')).toBeNull();
    expect(within(await rowOf('Ann Exec')).queryByTestId('member-edit')).toBeNull();
    expect(within(await rowOf('Bob Tech')).getByTestId('member-edit')).toBeTruthy();
  });

  it('lets an admin edit every other member, the account executive included', async () => {
    open('admin');
    expect(within(await rowOf('Ann Exec')).getByTestId('member-edit')).toBeTruthy();
    expect(within(await rowOf('Alice Martin')).queryByTestId('member-edit')).toBeNull();
  });

  it('lets a project manager invite with the roles of spec 6, without a language, technical contact first', async () => {
    let listed = 0;
    const api = open('businessOwner', {
      'GET /api/invitations': () => {
        const data = listed++ ? invitationsSeenBy('businessOwner', invitations) : [];
        return { status: 200, body: { data, offset: 0, total: data.length, totalCapped: false } };
      },
      'POST /api/invitations': ({ body }) => ({
        status: 201,
        body: {
          ...invitationsSeenBy('businessOwner', [invitation(82, 'pending', 'New Person')])[0],
          invitedEmail: (body as Invitation).invitedEmail,
        },
      }),
    });
    fireEvent.click(await screen.findByTestId('members-add'));
    const dialog = await screen.findByRole('dialog');
    expect(options('Role')).toEqual(['businessOwner', 'technicalContact', 'endUser']);
    expect((screen.getByLabelText('Role') as HTMLSelectElement).value).toBe('technicalContact');
    expect(within(dialog).queryByLabelText('Language of the invitation')).toBeNull();

    fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: 'New.Person@Acme.test' } });
    fireEvent.change(screen.getByLabelText('Full name'), { target: { value: 'New Person' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send the invitation' }));

    await waitFor(() => expect(api.calls('POST /api/invitations')).toHaveLength(1));
    expect(api.calls('POST /api/invitations')[0].body).toEqual({
      invitedEmail: 'new.person@acme.test',
      invitedFullName: 'New Person',
      targetCustomer: 7,
      targetRole: 'technicalContact',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(toastHistory.getSnapshot()[0]).toMatchObject({
      status: 'success',
      message: 'An invitation was sent to new.person@acme.test.',
    });
    await waitFor(() => expect(api.calls('GET /api/invitations').length).toBeGreaterThan(1));
  });

  it('gives an admin every role and the language selector, English by default', async () => {
    const api = open('admin', {
      'POST /api/invitations': () => ({
        status: 201,
        body: invitationsSeenBy('admin', [invitation(82, 'pending', 'New Person')])[0],
      }),
    });
    fireEvent.click(await screen.findByTestId('members-add'));
    await screen.findByRole('dialog');
    expect(options('Role')).toEqual(['accountExecutive', 'businessOwner', 'technicalContact', 'endUser']);
    expect((screen.getByLabelText('Language of the invitation') as HTMLSelectElement).value).toBe('en');
    fireEvent.change(screen.getByLabelText('Language of the invitation'), { target: { value: 'fr' } });
    fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: 'np@acme.test' } });
    fireEvent.change(screen.getByLabelText('Full name'), { target: { value: 'New Person' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send the invitation' }));
    await waitFor(() => expect(api.calls('POST /api/invitations')).toHaveLength(1));
    expect(api.calls('POST /api/invitations')[0].body).toMatchObject({ locale: 'fr' });
  });

  it('shows the server’s refusal as "Oh snap..." and on the e-mail field, keeping what was typed', async () => {
    open('businessOwner', {
      'POST /api/invitations': () =>
        apiError(409, 'already_member', 'This person is already a member of this customer', [
          { path: 'invitedEmail', message: 'apiErrors.already_member' },
        ]),
    });
    fireEvent.click(await screen.findByTestId('members-add'));
    await screen.findByRole('dialog');
    fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: 'bob.tech@acme.test' } });
    fireEvent.change(screen.getByLabelText('Full name'), { target: { value: 'Bob Tech' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send the invitation' }));
    expect((await screen.findByTestId('members-modal-feedback')).textContent).toBe(
      'Oh snap... This person is already a member of this customer.',
    );
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect((screen.getByLabelText('E-mail') as HTMLInputElement).value).toBe('bob.tech@acme.test');
  });

  it('edits only the status of a selected member', async () => {
    const api = open('businessOwner', {
      'PATCH /api/members/71/status': ({ body }) => ({
        status: 200,
        body: { ...membersSeenBy('businessOwner', members)[1], ...(body as object) },
      }),
    });
    fireEvent.click(within(await rowOf('Bob Tech')).getByTestId('member-edit'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByLabelText('E-mail')).toBeNull();
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'disabled' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls('PATCH /api/members/71/status')).toHaveLength(1));
    expect(api.calls('PATCH /api/members/71/status')[0].body).toEqual({ status: 'disabled' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('resends pending and expired invitations; copies only pending ones, and only for an admin', async () => {
    const api = open('businessOwner', {
      'POST /api/invitations/81/resend': () => ({
        status: 200,
        body: { ...invitationsSeenBy('businessOwner', invitations)[1], status: 'pending' },
      }),
    });
    const expired = await rowOf('Eve Expired');
    expect(within(await rowOf('Pia Pending')).queryByTestId('invitation-copy')).toBeNull();
    fireEvent.click(within(expired).getByTestId('invitation-resend'));
    await waitFor(() => expect(api.calls('POST /api/invitations/81/resend')).toHaveLength(1));
  });

  it('lets an admin copy a pending link, says "Clipboard not available" without a clipboard', async () => {
    vi.stubGlobal('navigator', { ...navigator, clipboard: undefined });
    open('admin', { 'GET /api/invitations': () => listed(withLinks('admin')) });
    expect(within(await rowOf('Eve Expired')).queryByTestId('invitation-copy')).toBeNull();
    fireEvent.click(within(await rowOf('Pia Pending')).getByTestId('invitation-copy'));
    await waitFor(() =>
      expect(toastHistory.getSnapshot()[0]).toMatchObject({ status: 'error', message: 'Clipboard not available' }),
    );
  });

  it("copies the link the list's answer carries, without asking the server again", async () => {
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    const api = open('admin', { 'GET /api/invitations': () => listed(withLinks('admin')) });
    fireEvent.click(within(await rowOf('Pia Pending')).getByTestId('invitation-copy'));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('http://portal.test/en/invitation/key-80'));
    expect(api.calls('GET /api/invitations/80/link')).toHaveLength(0);
  });

  it('asks the link route when the answer carries no link, and shows why it cannot be copied', async () => {
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    const api = open('admin', {
      'GET /api/invitations/80/link': () =>
        apiError(
          409,
          'link_unavailable',
          'The link of this invitation cannot be shown again: resend it to get a new one',
        ),
    });
    fireEvent.click(within(await rowOf('Pia Pending')).getByTestId('invitation-copy'));
    await waitFor(() => expect(api.calls('GET /api/invitations/80/link')).toHaveLength(1));
    await waitFor(() => expect(toastHistory.getSnapshot()[0]).toMatchObject({ status: 'error' }));
    expect(writeText).not.toHaveBeenCalled();
  });

  it('cancels an invitation only after confirmation', async () => {
    const api = open('businessOwner', { 'DELETE /api/invitations/80': () => ({ status: 200, body: { ok: true } }) });
    fireEvent.click(within(await rowOf('Pia Pending')).getByTestId('invitation-cancel'));
    const confirm = await screen.findByTestId('invitation-cancel-confirm');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Keep it' }));
    await waitFor(() => expect(screen.queryByTestId('invitation-cancel-confirm')).toBeNull());
    expect(api.calls('DELETE /api/invitations/80')).toHaveLength(0);

    fireEvent.click(within(await rowOf('Pia Pending')).getByTestId('invitation-cancel'));
    fireEvent.click(await screen.findByTestId('invitation-cancel-yes'));
    await waitFor(() => expect(api.calls('DELETE /api/invitations/80')).toHaveLength(1));
  });

  it('shows members and invitations as two lists, each paged by ten with its total', async () => {
    const many = Array.from({ length: 42 }, (_, n) => member(100 + n, 100 + n, `Person ${n + 1}`));
    const api = open('businessOwner', {
      'GET /api/customers/7/members': ({ query }) => {
        const offset = Number(query.get('pageOffset'));
        return {
          status: 200,
          body: {
            data: membersSeenBy('businessOwner', many).slice(offset, offset + 10),
            offset,
            total: 42,
            totalCapped: false,
          },
        };
      },
      'GET /api/invitations': () => ({
        status: 200,
        body: { data: invitationsSeenBy('businessOwner', invitations), offset: 0, total: 20, totalCapped: false },
      }),
    });
    const membersList = await screen.findByTestId('members-list');
    await within(membersList).findByText('Person 1');
    expect(within(membersList).getAllByTestId('member-row')).toHaveLength(10);
    expect(within(membersList).getByText('Page 1 of 5')).toBeTruthy();
    expect(within(membersList).queryByText('Pia Pending')).toBeNull();
    const invitationsList = screen.getByTestId('invitations-list');
    expect(within(invitationsList).getByText('Page 1 of 2')).toBeTruthy();
    expect(within(invitationsList).getByText('Pia Pending')).toBeTruthy();
    expect(api.calls('GET /api/customers/7/members')[0].query.get('pageLength')).toBe('10');
    expect(api.calls('GET /api/invitations')[0].query.get('pageLength')).toBe('10');

    fireEvent.click(within(membersList).getByRole('button', { name: 'Next page' }));
    await within(membersList).findByText('Person 11');
    expect(screen.getByTestId('location').getAttribute('data-search')).toBe('?members-page=2');
  });

  it('filters and sorts from the address, and writes the search back into it', async () => {
    const api = open('businessOwner', {}, '/en?members-q=bob&members-sort=email&invitations-sort=name');
    await rowOf('Bob Tech');
    const asked = api.calls('GET /api/customers/7/members')[0].query;
    expect([asked.get('filter'), asked.get('sort')]).toEqual(['bob', 'email']);
    expect(api.calls('GET /api/invitations')[0].query.get('sort')).toBe('name');
    expect((screen.getByLabelText('Search the members') as HTMLInputElement).value).toBe('bob');
    expect(
      (screen.getByLabelText('Sort by', { selector: '[data-testid="members-sort"]' }) as HTMLSelectElement).value,
    ).toBe('email');
    fireEvent.change(screen.getByLabelText('Search the invitations'), { target: { value: 'pia' } });
    await waitFor(() =>
      expect(
        new URLSearchParams(screen.getByTestId('location').getAttribute('data-search') ?? '').get('invitations-q'),
      ).toBe('pia'),
    );
    await waitFor(() => expect(api.calls('GET /api/invitations').at(-1)!.query.get('filter')).toBe('pia'));
  });

  it('says what to do next when there is no member, and when nothing matches', async () => {
    open('businessOwner', {
      'GET /api/customers/7/members': ({ query }) => ({
        status: 200,
        body: { data: [], offset: 0, total: query.get('filter') ? 0 : 0, totalCapped: false },
      }),
      'GET /api/invitations': () => ({ status: 200, body: { data: [], offset: 0, total: 0, totalCapped: false } }),
    });
    const empty = await screen.findByTestId('members-empty');
    expect(empty.textContent).toContain('This customer has no members yet.');
    expect(empty.textContent).toContain('Invite the first one with “Add”');
    expect((await screen.findByTestId('invitations-empty')).textContent).toBe(
      'No invitation is waiting for an answer.',
    );
  });
});
