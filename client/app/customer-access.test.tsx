// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { CUSTOMER_ABILITIES } from '../../common/api/abilities';
import type { Customer } from '../../common/api/customers';
import type { Role } from '../../common/roles';
import { customerCan } from '../test/abilities';
import { apiError, fakeApi } from '../test/fake-api';
import { useCustomerAccess } from './customer-access';

const customer = (yourRole: Role): Customer => ({
  id: 7,
  name: 'Acme',
  customerKey: 'ACME000001',
  selfService: false,
  paymentStatus: null,
  accountExecutive: { fullName: 'Alice Martin', email: 'alice@demo.portal' },
  billingEmail: null,
  yourRole,
  yourMembershipId: yourRole === 'admin' ? null : 12,
  yourSettings: null,
  can: customerCan(yourRole),
});

function renderAccess(customerId: number) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
  return renderHook(() => useCustomerAccess(customerId), { wrapper });
}

describe('useCustomerAccess', () => {
  it('gives the role held in the customer and what the server says it may do there', async () => {
    const api = fakeApi({ 'GET /api/customers/7': () => ({ status: 200, body: customer('businessOwner') }) });
    const { result } = renderAccess(7);
    expect(result.current.role).toBeNull();
    expect(result.current.can('viewTeam')).toBe(false);
    expect(result.current.inviteRoles).toEqual([]);

    await waitFor(() => expect(result.current.role).toBe('businessOwner'));
    expect(result.current.can('viewTeam')).toBe(true);
    expect(result.current.can('pay')).toBe(true);
    expect(result.current.can('addLicence')).toBe(false);
    expect(result.current.can('edit')).toBe(false);
    expect(result.current.inviteRoles).toEqual(['businessOwner', 'technicalContact', 'endUser']);
    expect(result.current.customer?.name).toBe('Acme');
    expect(api.calls('GET /api/customers/7')).toHaveLength(1);
  });

  it("reads an account executive's abilities in that customer", async () => {
    fakeApi({ 'GET /api/customers/7': () => ({ status: 200, body: customer('accountExecutive') }) });
    const { result } = renderAccess(7);
    await waitFor(() => expect(result.current.role).toBe('accountExecutive'));
    expect(result.current.can('addLicence')).toBe(true);
    expect(result.current.can('chooseInvitationLocale')).toBe(true);
    expect(result.current.can('copyInvitationLink')).toBe(false);
    expect(result.current.can('pay')).toBe(false);
    expect(result.current.inviteRoles).toEqual(['accountExecutive', 'businessOwner', 'technicalContact', 'endUser']);
  });

  it('follows the abilities the server sends, not the role', async () => {
    const answer = customer('admin');
    fakeApi({
      'GET /api/customers/7': () => ({
        status: 200,
        body: { ...answer, can: { ...answer.can, copyInvitationLink: false, inviteRoles: ['endUser'] } },
      }),
    });
    const { result } = renderAccess(7);
    await waitFor(() => expect(result.current.role).toBe('admin'));
    expect(result.current.can('copyInvitationLink')).toBe(false);
    expect(result.current.can('edit')).toBe(true);
    expect(result.current.inviteRoles).toEqual(['endUser']);
  });

  it('tells a customer the user may not see, and grants nothing there', async () => {
    fakeApi({ 'GET /api/customers/8': () => apiError(404, 'not_found', 'Customer not found') });
    const { result } = renderAccess(8);
    await waitFor(() => expect(result.current.notFound).toBe(true));
    expect(result.current.role).toBeNull();
    for (const ability of CUSTOMER_ABILITIES) expect(result.current.can(ability), ability).toBe(false);
    expect(result.current.inviteRoles).toEqual([]);
  });
});
