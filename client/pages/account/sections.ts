import type { Customer } from '../../../common/api/customers';
import { PAYMENT_ISSUE_STATUSES, RUNNING_PAYMENT_STATUSES } from '../../../common/billing';
import type { CustomerAbility } from '../../app/customer-access';

/**
 * What the payment part of the page is about (spec 4 "Payment status"), for a self-service customer:
 * `checkout` (no subscription yet, or initiated: a pay button), `waiting` (processing), `issue` (a
 * payment problem), or null when nothing is to be paid.
 */
export type PaymentScreen = 'checkout' | 'waiting' | 'issue' | null;

export function paymentScreen(customer: Pick<Customer, 'selfService' | 'paymentStatus'>): PaymentScreen {
  if (!customer.selfService) return null;
  const status = customer.paymentStatus;
  if (status === null || status === 'initiated') return 'checkout';
  if (status === 'processing') return 'waiting';
  if (PAYMENT_ISSUE_STATUSES.includes(status)) return 'issue';
  return null;
}

export interface AccountSections {
  header: {
    /** the customer modal's pencil */
    edit: boolean;
    telemetry: boolean;
    sync: boolean;
    /** the access levels of the licences, for the customer's own contacts of a sales-led customer */
    licenceAccessLevels: boolean;
  };
  /** the payment or payment-issue screen (spec 4), for the roles who may pay */
  payment: PaymentScreen;
  /** the main sections are held back by the subscription and this role cannot act on it: say so */
  subscriptionNotice: boolean;
  /**
   * a self-service customer's page opens on its cloud instance and its subscription (what the trial
   * is), before the licences
   */
  serviceFirst: boolean;
  licences: boolean;
  versions: boolean;
  members: boolean;
  recentActions: boolean;
  cloudInstances: boolean;
  subscription: boolean;
  /** none of the lists above is shown to this role (an end user): say what the page offers and whom to ask */
  nothingToManage: boolean;
  resources: boolean;
  footer: { accountExecutive: boolean; billingContact: boolean };
}

/**
 * Which parts of the customer page the user sees (spec 2 "Customer page", 4 "Main sections shown if" and
 * "Customer page load", 6), from what the customer's policy says they may do there (`can`) and the
 * subscription's state (and, once known, how many licences it holds): the one place the page's layout is
 * decided. A section that is not shown is not
 * rendered, so what it loads is never asked for (members, logs and invitations for a technical contact
 * or an end user; licences for an end user).
 */
export function accountSections(
  customer: Pick<Customer, 'selfService' | 'paymentStatus' | 'can'>,
  data: { licenceTotal?: number } = {},
): AccountSections {
  const abilities = customer.can;
  const can = (ability: CustomerAbility) => abilities[ability];
  const status = customer.paymentStatus;
  const main =
    !customer.selfService || can('viewUnpaidAccount') || (status !== null && RUNNING_PAYMENT_STATUSES.includes(status));
  const screen = paymentScreen(customer);
  const payment = can('pay') ? screen : null;
  // a self-service customer without a licence (a trial's is its cloud instance): no empty licence
  // and version cards for those who cannot add one
  const noLicenceToShow = customer.selfService && data.licenceTotal === 0 && !can('addLicence');
  return {
    header: {
      edit: can('edit'),
      telemetry: can('telemetryAndSync'),
      sync: can('syncWithCrm'),
      licenceAccessLevels: !customer.selfService && can('viewLicenceAccessLevels'),
    },
    payment,
    subscriptionNotice: !main && payment === null,
    serviceFirst: customer.selfService,
    licences: main && can('viewLicences') && !noLicenceToShow,
    versions: main && can('viewLicences') && !noLicenceToShow,
    members: main && can('viewTeam'),
    recentActions: main && can('viewRecentActions'),
    cloudInstances: main,
    subscription: main && can('viewSubscription'),
    nothingToManage: main && !can('viewLicences') && !can('viewTeam') && !can('viewSubscription'),
    resources: true,
    footer: { accountExecutive: true, billingContact: can('viewBillingContact') },
  };
}

/**
 * The customer's telemetry dashboard: the configured address (TELEMETRY_URL_TEMPLATE) with `{key}` (or
 * its older name `{customerKey}`) and `{id}` filled in.
 */
export function telemetryLink(template: string, customer: Pick<Customer, 'id' | 'customerKey'>): string {
  return template
    .replaceAll('{key}', encodeURIComponent(customer.customerKey))
    .replaceAll('{customerKey}', encodeURIComponent(customer.customerKey))
    .replaceAll('{id}', String(customer.id));
}
