import { useTranslation } from '../../../i18n/use-translation';
import type { Customer } from '../../../../common/api/customers';
import { AccountSection } from '../AccountSection';
import { MembersTable } from '../members/MembersTable';

/**
 * Members and pending invitations (spec 2 "Members"). The page renders it only for the roles that
 * see the team (`accountSections`), so nobody else ever asks for the members or invitations.
 */
export function MembersSection({ customer }: { customer: Customer }) {
  const { t } = useTranslation();
  return (
    <AccountSection title={t('account.members.title')} testId="members-section">
      <MembersTable customerId={customer.id} />
    </AccountSection>
  );
}
