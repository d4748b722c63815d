import { describe, expect, it } from 'vitest';
import { PAYMENT_STATUSES, type PaymentStatus } from '../../../common/domain';
import { ROLES, type Role } from '../../../common/roles';
import { customerCan } from '../../test/abilities';
import { accountSections, paymentScreen, telemetryLink } from './sections';

const salesLed = { selfService: false, paymentStatus: null };
const selfService = (paymentStatus: PaymentStatus | null) => ({ selfService: true, paymentStatus });

/** The sections of a customer as the server sends it to a user holding `role` there (its `can`). */
const sectionsAs = (customer: typeof salesLed | ReturnType<typeof selfService>, role: Role) =>
  accountSections({ ...customer, can: customerCan(role) });

/** The roles for which a flag is on, in ROLES order. */
const rolesWhere = (flag: (role: Role) => boolean) => ROLES.filter(flag);

describe('accountSections: who sees what on the page of a sales-led customer', () => {
  const of = (role: Role) => sectionsAs(salesLed, role);

  it('header: the edit pencil for admins; telemetry and sync for staff; access levels for the customer’s contacts', () => {
    expect(rolesWhere((r) => of(r).header.edit)).toEqual(['admin']);
    const staff = ['admin', 'accountExecutive', 'productManager', 'supportEngineer'];
    expect(rolesWhere((r) => of(r).header.telemetry)).toEqual(staff);
    expect(rolesWhere((r) => of(r).header.sync)).toEqual(staff);
    expect(rolesWhere((r) => of(r).header.licenceAccessLevels)).toEqual(['businessOwner', 'technicalContact']);
  });

  it('licences and versions for every role but the end user', () => {
    const all = ['admin', 'accountExecutive', 'productManager', 'supportEngineer', 'businessOwner', 'technicalContact'];
    expect(rolesWhere((r) => of(r).licences)).toEqual(all);
    expect(rolesWhere((r) => of(r).versions)).toEqual(all);
  });

  it('members and recent actions for account executives, admins, project managers and support engineers only', () => {
    const team = ['admin', 'accountExecutive', 'supportEngineer', 'businessOwner'];
    expect(rolesWhere((r) => of(r).members)).toEqual(team);
    expect(rolesWhere((r) => of(r).recentActions)).toEqual(team);
  });

  it('the subscription block for project managers, admins, account executives and support engineers', () => {
    expect(rolesWhere((r) => of(r).subscription)).toEqual([
      'admin',
      'accountExecutive',
      'supportEngineer',
      'businessOwner',
    ]);
  });

  it('cloud instances, resources and the account executive’s contact for everyone; the billing contact for the project manager only', () => {
    expect(rolesWhere((r) => of(r).cloudInstances)).toEqual([...ROLES]);
    expect(rolesWhere((r) => of(r).resources)).toEqual([...ROLES]);
    expect(rolesWhere((r) => of(r).footer.accountExecutive)).toEqual([...ROLES]);
    expect(rolesWhere((r) => of(r).footer.billingContact)).toEqual(['businessOwner']);
  });

  it('no payment screen and no subscription notice: a sales-led customer pays outside the portal', () => {
    for (const role of ROLES) {
      expect(of(role).payment, role).toBeNull();
      expect(of(role).subscriptionNotice, role).toBe(false);
    }
  });

  it('follows what the customer’s abilities allow, not the role', () => {
    // an admin's abilities, less the edit pencil and the team: the page shows what `can` says
    const can = { ...customerCan('admin'), edit: false, viewTeam: false, viewRecentActions: false };
    const sections = accountSections({ ...salesLed, can });
    expect(sections.header.edit).toBe(false);
    expect(sections.members).toBe(false);
    expect(sections.recentActions).toBe(false);
    expect(sections.licences).toBe(true);
  });
});

describe('paymentScreen: spec 4 "Payment status" for a self-service customer', () => {
  it('no subscription yet or initiated: the pay button; processing: the waiting screen', () => {
    expect(paymentScreen(selfService(null))).toBe('checkout');
    expect(paymentScreen(selfService('initiated'))).toBe('checkout');
    expect(paymentScreen(selfService('processing'))).toBe('waiting');
  });

  it('grace, past due, unpaid and canceled: the payment-issue section; a running subscription: nothing', () => {
    for (const status of ['grace', 'pastDue', 'unpaid', 'canceled'] as const) {
      expect(paymentScreen(selfService(status)), status).toBe('issue');
    }
    for (const status of ['trial', 'paid', 'toBeCanceled'] as const) {
      expect(paymentScreen(selfService(status)), status).toBeNull();
    }
  });

  it('never for a sales-led customer, whatever its status', () => {
    for (const status of [null, ...PAYMENT_STATUSES]) {
      expect(paymentScreen({ selfService: false, paymentStatus: status }), String(status)).toBeNull();
    }
  });
});

describe('accountSections: a self-service customer (spec 4 "Main sections shown if")', () => {
  const mainSections = (s: ReturnType<typeof accountSections>) => [
    s.licences,
    s.versions,
    s.members,
    s.recentActions,
    s.cloudInstances,
    s.subscription,
  ];

  it('while the subscription runs (trial, paid, grace, toBeCanceled), every role sees its usual sections', () => {
    for (const status of ['trial', 'paid', 'grace', 'toBeCanceled'] as const) {
      for (const role of ROLES) {
        expect(mainSections(sectionsAs(selfService(status), role)), `${status} ${role}`).toEqual(
          mainSections(sectionsAs(salesLed, role)),
        );
      }
    }
  });

  it('otherwise only admins and support engineers see the main sections', () => {
    for (const status of [null, 'processing', 'initiated', 'pastDue', 'unpaid', 'canceled'] as const) {
      expect(
        rolesWhere((r) => sectionsAs(selfService(status), r).cloudInstances),
        String(status),
      ).toEqual(['admin', 'supportEngineer']);
      expect(
        rolesWhere((r) => mainSections(sectionsAs(selfService(status), r)).some(Boolean)),
        String(status),
      ).toEqual(['admin', 'supportEngineer']);
    }
  });

  it('opens on the cloud instances and the subscription, and shows no empty licence cards to who cannot add one', () => {
    expect(rolesWhere((r) => sectionsAs(selfService('trial'), r).serviceFirst)).toEqual([...ROLES]);
    expect(rolesWhere((r) => sectionsAs(salesLed, r).serviceFirst)).toEqual([]);
    const withoutLicence = (role: Role) =>
      accountSections({ ...selfService('trial'), can: customerCan(role) }, { licenceTotal: 0 });
    // those who may add a licence still see the empty table, with its Add button
    expect(rolesWhere((r) => withoutLicence(r).licences)).toEqual(['admin', 'accountExecutive', 'productManager']);
    expect(rolesWhere((r) => withoutLicence(r).versions)).toEqual(['admin', 'accountExecutive', 'productManager']);
    const withLicence = (role: Role) =>
      accountSections({ ...selfService('trial'), can: customerCan(role) }, { licenceTotal: 1 });
    expect(rolesWhere((r) => withLicence(r).licences)).toEqual(rolesWhere((r) => sectionsAs(salesLed, r).licences));
    // a sales-led customer without a licence keeps its (empty) table
    const salesWithout = (role: Role) => accountSections({ ...salesLed, can: customerCan(role) }, { licenceTotal: 0 });
    expect(rolesWhere((r) => salesWithout(r).licences)).toEqual(rolesWhere((r) => sectionsAs(salesLed, r).licences));
  });

  it('the payment screen only for project managers, admins and support engineers', () => {
    const payers = ['admin', 'supportEngineer', 'businessOwner'];
    expect(rolesWhere((r) => sectionsAs(selfService(null), r).payment === 'checkout')).toEqual(payers);
    expect(rolesWhere((r) => sectionsAs(selfService('processing'), r).payment === 'waiting')).toEqual(payers);
    expect(rolesWhere((r) => sectionsAs(selfService('grace'), r).payment === 'issue')).toEqual(payers);
    expect(rolesWhere((r) => sectionsAs(selfService('pastDue'), r).payment === 'issue')).toEqual(payers);
    expect(rolesWhere((r) => sectionsAs(selfService('paid'), r).payment !== null)).toEqual([]);
  });

  it('a role that sees neither the main sections nor the payment is told why the page is empty', () => {
    expect(rolesWhere((r) => sectionsAs(selfService('unpaid'), r).subscriptionNotice)).toEqual([
      'accountExecutive',
      'productManager',
      'technicalContact',
      'endUser',
    ]);
    expect(rolesWhere((r) => sectionsAs(selfService('trial'), r).subscriptionNotice)).toEqual([]);
    // grace keeps the main sections: nobody is left with an empty page
    expect(rolesWhere((r) => sectionsAs(selfService('grace'), r).subscriptionNotice)).toEqual([]);
  });

  it('no licence access levels in the header of a self-service customer', () => {
    expect(rolesWhere((r) => sectionsAs(selfService('paid'), r).header.licenceAccessLevels)).toEqual([]);
  });
});

describe('telemetryLink: TELEMETRY_URL_TEMPLATE filled in', () => {
  it('replaces {key} (or {customerKey}) and {id}, the key made safe for an address', () => {
    const customer = { id: 42, customerKey: 'AB CD/EF12' };
    expect(telemetryLink('https://grafana.example.com/d/customer?var-key={key}&var-id={id}', customer)).toBe(
      'https://grafana.example.com/d/customer?var-key=AB%20CD%2FEF12&var-id=42',
    );
    expect(telemetryLink('https://telemetry.example.com/customers/{customerKey}', customer)).toBe(
      'https://telemetry.example.com/customers/AB%20CD%2FEF12',
    );
  });
});
