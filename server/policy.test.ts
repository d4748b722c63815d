import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../common/api/errors';
import { CUSTOMIZATION_TYPES } from '../common/domain';
import { MEMBER_ROLES, ROLES, USER_TYPES } from '../common/roles';
import * as fixtures from '../client/test/abilities';
import { type Actor, systemActor } from './actor';
import { HttpError } from './http-error';
import { artifactsMayChange, mayDeleteArtifact, mayUploadArtifact } from './modules/artifacts/policy';
import { profileAbilities } from './modules/auth/policy';
import { mayListEveryVersion, productAbilities, versionAbilities } from './modules/catalogue/policy';
import { customerAbilities } from './modules/customers/policy';
import { customizationAbilities, mayCustomize, offersCustomization } from './modules/customizations/policy';
import { licenceAllowsDownload, licenceCovers, mayDownload, typesOpenTo } from './modules/downloads/policy';
import { invitationAbilities, mayChooseLocale, mayInviteAs } from './modules/invitations/policy';
import { licenceAbilities } from './modules/licences/policy';
import { mayChangeStatus, mayEditSettings, memberAbilities } from './modules/members/policy';
import { authorizeUserCreate, authorizeUserUpdate, mayChangeUserStatus, userAbilities } from './modules/users/policy';
import { callerOf } from './policy';

/** The policies' finer rules, case by case (spec sections 2, 4 and 6; docs/decisions/056). */
const me = { id: 1 };
const someoneElse = { userId: 2 };

describe('members policy', () => {
  it('lets nobody change their own membership, even an admin', () => {
    expect(mayChangeStatus(me, { role: 'admin' }, { userId: 1, role: 'endUser' })).toBe(false);
  });

  it("lets a project manager disable a technical contact, not the customer's account executive", () => {
    expect(mayChangeStatus(me, { role: 'businessOwner' }, { ...someoneElse, role: 'technicalContact' })).toBe(true);
    expect(mayChangeStatus(me, { role: 'businessOwner' }, { ...someoneElse, role: 'accountExecutive' })).toBe(false);
  });

  it('lets a technical contact change nobody: they do not see the team', () => {
    expect(mayChangeStatus(me, { role: 'technicalContact' }, { ...someoneElse, role: 'endUser' })).toBe(false);
  });

  it('lets a member change their own notification settings, and who sees the team those of others', () => {
    expect(mayEditSettings(me, { role: 'endUser' }, { userId: 1 })).toBe(true);
    expect(mayEditSettings(me, { role: 'endUser' }, someoneElse)).toBe(false);
    expect(mayEditSettings(me, { role: 'supportEngineer' }, someoneElse)).toBe(true);
  });

  it('answers with both in `can`', () => {
    expect(memberAbilities(me, { role: 'admin' }, { ...someoneElse, role: 'businessOwner' })).toEqual({
      changeStatus: true,
      editSettings: true,
    });
  });
});

describe('invitations policy', () => {
  it('lets a project manager invite a technical contact, not an account executive', () => {
    expect(mayInviteAs({ role: 'businessOwner' }, 'technicalContact')).toBe(true);
    expect(mayInviteAs({ role: 'businessOwner' }, 'accountExecutive')).toBe(false);
  });

  it('lets nobody who does not see the team invite, whatever roles they could give', () => {
    // a product manager's options include every role, but the team is not theirs to manage
    expect(mayInviteAs({ role: 'productManager' }, 'endUser')).toBe(false);
  });

  it('lets account executives and admins choose the language', () => {
    expect(mayChooseLocale({ role: 'accountExecutive' })).toBe(true);
    expect(mayChooseLocale({ role: 'supportEngineer' })).toBe(false);
  });

  it('gives the link to admins only; cancel and resend to who sees the team', () => {
    expect(invitationAbilities({ role: 'admin' })).toEqual({ cancel: true, resend: true, copyLink: true });
    expect(invitationAbilities({ role: 'businessOwner' })).toEqual({ cancel: true, resend: true, copyLink: false });
    expect(invitationAbilities(null)).toEqual({ cancel: false, resend: false, copyLink: false });
  });
});

describe('licences policy', () => {
  it('offers a customization only for a product that has a customization type', () => {
    expect(licenceAbilities({ role: 'admin' }, { customizationType: 'lke' }).customize).toBe(true);
    expect(licenceAbilities({ role: 'admin' }, { customizationType: 'none' }).customize).toBe(false);
  });

  it('lets a technical contact download and nothing else', () => {
    expect(licenceAbilities({ role: 'technicalContact' }, { customizationType: 'lke' })).toEqual({
      renew: false,
      edit: false,
      customize: false,
      download: true,
      viewDetails: false,
    });
  });

  it('lets a product manager renew without downloading', () => {
    const can = licenceAbilities({ role: 'productManager' }, { customizationType: 'none' });
    expect([can.renew, can.edit, can.download]).toEqual([true, true, false]);
  });
});

describe('customers policy', () => {
  it('gives a project manager the team, the invitation roles below theirs and payment, not the licences', () => {
    const can = customerAbilities({ role: 'businessOwner' }, { crm: true, payments: true });
    expect(can).toMatchObject({ viewTeam: true, pay: true, viewBillingContact: true, addLicence: false, edit: false });
    expect(can.inviteRoles).toEqual(['businessOwner', 'technicalContact', 'endUser']);
  });

  it('offers no sync without a CRM and no payment without a payment provider', () => {
    expect(customerAbilities({ role: 'admin' }, { crm: true, payments: true })).toMatchObject({
      telemetryAndSync: true,
      syncWithCrm: true,
      pay: true,
    });
    expect(customerAbilities({ role: 'admin' }, { crm: false, payments: false })).toMatchObject({
      telemetryAndSync: true,
      syncWithCrm: false,
      pay: false,
    });
  });

  it('gives an end user nothing to manage', () => {
    const can = customerAbilities({ role: 'endUser' }, { crm: true, payments: true });
    expect(Object.entries(can).filter(([, value]) => value === true)).toEqual([]);
    expect(can.inviteRoles).toEqual([]);
  });
});

describe('catalogue policy', () => {
  it('lets who manages versions change an unpublished version and only edit a published one', () => {
    const pm = { type: 'productManager' } as const;
    expect(versionAbilities(pm, { published: false })).toEqual({
      edit: true,
      publish: true,
      upload: true,
      deleteArtifacts: true,
    });
    expect(versionAbilities(pm, { published: true })).toEqual({
      edit: true,
      publish: false,
      upload: false,
      deleteArtifacts: false,
    });
  });

  it("gives a customer's contact nothing on a version, and no product", () => {
    expect(Object.values(versionAbilities({ type: 'client' }, { published: false }))).not.toContain(true);
    expect(productAbilities({ type: 'client' })).toEqual({ edit: false, manageVersions: false });
    expect(mayListEveryVersion({ type: 'client' })).toBe(false);
  });

  it('lets an admin edit a product and a product manager only manage its versions', () => {
    expect(productAbilities({ type: 'admin' })).toEqual({ edit: true, manageVersions: true });
    expect(productAbilities({ type: 'productManager' })).toEqual({ edit: false, manageVersions: true });
  });
});

describe('profile policy', () => {
  it("points a project manager's brand and home link to their account, with their account executive's contact", () => {
    const can = profileAbilities({ type: 'client' }, 'businessOwner');
    expect(can).toMatchObject({ brandToAccount: true, homeLink: true, accountExecutiveContact: true, viewHome: false });
  });

  it('gives a client without any membership no link at all', () => {
    expect(Object.values(profileAbilities({ type: 'client' }, null))).not.toContain(true);
  });

  it('gives a product manager the products and the analytics, not the users', () => {
    expect(profileAbilities({ type: 'productManager' }, 'productManager')).toMatchObject({
      viewProducts: true,
      viewDownloadAnalytics: true,
      manageUsers: false,
      manageBackgroundWork: false,
      brandToRoot: true,
      brandToAccount: false,
    });
  });
});

describe('artifacts policy', () => {
  const pm = { type: 'productManager' } as const;

  it("changes an unpublished version's files, never a published one's", () => {
    expect(artifactsMayChange({ published: false })).toBe(true);
    expect(artifactsMayChange({ published: true })).toBe(false);
  });

  it('lets who manages versions upload and remove while the version is unpublished', () => {
    expect(mayUploadArtifact(pm, { published: false })).toBe(true);
    expect(mayDeleteArtifact(pm, { published: false })).toBe(true);
    expect(mayUploadArtifact({ type: 'admin' }, { published: false })).toBe(true);
    expect(mayUploadArtifact(pm, { published: true })).toBe(false);
    expect(mayDeleteArtifact(pm, { published: true })).toBe(false);
  });

  it('lets nobody else upload or remove, not even a support engineer who reads the customers', () => {
    for (const type of ['supportEngineer', 'accountExecutive', 'client'] as const) {
      expect(mayUploadArtifact({ type }, { published: false })).toBe(false);
      expect(mayDeleteArtifact({ type }, { published: false })).toBe(false);
    }
    expect(mayUploadArtifact(null, { published: false })).toBe(false);
  });

  it("is what a version's abilities say of its files", () => {
    for (const published of [false, true]) {
      const can = versionAbilities(pm, { published });
      expect([can.upload, can.deleteArtifacts]).toEqual([
        mayUploadArtifact(pm, { published }),
        mayDeleteArtifact(pm, { published }),
      ]);
    }
  });
});

describe('downloads policy', () => {
  it('lets the roles that download download: a technical contact and a project manager, not an end user', () => {
    const downloaders = ROLES.filter((role) => mayDownload({ role }));
    expect(downloaders.sort()).toEqual(
      ['accountExecutive', 'admin', 'businessOwner', 'supportEngineer', 'technicalContact'].sort(),
    );
    expect(mayDownload(null)).toBe(false);
  });

  it("is what a licence's abilities say of downloading", () => {
    for (const role of ROLES) {
      expect(licenceAbilities({ role }, { customizationType: 'none' }).download).toBe(mayDownload({ role }));
    }
  });

  it('opens the types of the access level: a stable licence no beta, a beta licence no alpha', () => {
    expect(typesOpenTo({ accessLevel: 'stable' })).toEqual(['stable', 'maintenance', 'eol']);
    expect(typesOpenTo({ accessLevel: 'beta' })).toContain('beta');
    expect(typesOpenTo({ accessLevel: 'beta' })).not.toContain('alpha');
    expect(typesOpenTo({ accessLevel: 'alpha' })).toContain('alpha');
  });

  it('covers a published version of the licence product of a type it opens, nothing else', () => {
    const licence = { productKey: 'server', accessLevel: 'beta' } as const;
    const version = { productKey: 'server', published: true, type: 'beta' } as const;
    expect(licenceCovers(licence, version)).toBe(true);
    expect(licenceCovers(licence, { ...version, published: false })).toBe(false);
    expect(licenceCovers(licence, { ...version, productKey: 'desktop' })).toBe(false);
    expect(licenceCovers(licence, { ...version, type: 'alpha' })).toBe(false);
    expect(licenceCovers({ ...licence, accessLevel: 'stable' }, version)).toBe(false);
  });

  it('serves downloads through the grace period, not a day after', () => {
    const today = '2026-06-30';
    expect(licenceAllowsDownload({ endDate: '2027-01-01' }, today)).toBe(true);
    expect(licenceAllowsDownload({ endDate: '2026-05-31' }, today)).toBe(true);
    expect(licenceAllowsDownload({ endDate: '2026-05-30' }, today)).toBe(false);
  });
});

describe('customizations policy', () => {
  it('offers a customization for a product with a customization type only', () => {
    expect(offersCustomization({ customizationType: 'lke' })).toBe(true);
    expect(offersCustomization({ customizationType: 'ogma' })).toBe(true);
    expect(offersCustomization({ customizationType: 'none' })).toBe(false);
  });

  it('lets who manages licences customize, and nobody a product that offers none', () => {
    const customizers = ROLES.filter((role) => mayCustomize({ role }, { customizationType: 'lke' }));
    expect(customizers.sort()).toEqual(['accountExecutive', 'admin', 'productManager']);
    expect(mayCustomize({ role: 'admin' }, { customizationType: 'none' })).toBe(false);
    expect(mayCustomize(null, { customizationType: 'lke' })).toBe(false);
  });

  it('lets a support engineer read a customization, not change it', () => {
    expect(customizationAbilities({ role: 'supportEngineer' }, { customizationType: 'lke' })).toEqual({ edit: false });
    expect(customizationAbilities({ role: 'accountExecutive' }, { customizationType: 'lke' })).toEqual({ edit: true });
  });

  it("is what a licence's abilities say of customizing", () => {
    for (const role of ROLES) {
      for (const customizationType of ['none', 'lke'] as const) {
        expect(licenceAbilities({ role }, { customizationType }).customize).toBe(
          mayCustomize({ role }, { customizationType }),
        );
      }
    }
  });
});

describe('users policy', () => {
  const admin = { id: 1, type: 'admin' } as const;
  const asUser = (user: typeof admin): Actor => ({
    kind: 'user',
    user: { ...user, email: 'admin@example.com', fullName: 'Admin', status: 'enabled', preferredLocale: 'en' },
    ip: '127.0.0.1',
    userAgent: null,
    sessionHash: null,
  });

  it("lets an admin edit any account and change another's status, not their own", () => {
    expect(userAbilities(admin, { id: 2 })).toEqual({ edit: true, changeStatus: true });
    expect(userAbilities(admin, { id: 1 })).toEqual({ edit: true, changeStatus: false });
    expect(mayChangeUserStatus(admin, { id: 1 })).toBe(false);
  });

  it('lets no one else edit an account', () => {
    for (const type of ['productManager', 'supportEngineer', 'accountExecutive', 'client'] as const) {
      expect(userAbilities({ id: 1, type }, { id: 2 })).toEqual({ edit: false, changeStatus: false });
    }
    expect(userAbilities(null, { id: 2 })).toEqual({ edit: false, changeStatus: false });
  });

  it('refuses disabling one own account, and lets the admin disable another or keep their own enabled', () => {
    const refusal = (() => {
      try {
        authorizeUserUpdate(asUser(admin), 1, { status: 'disabled' });
      } catch (error) {
        return error;
      }
      return null;
    })();
    expect(refusal).toBeInstanceOf(HttpError);
    expect(refusal).toMatchObject({ statusCode: 403, code: ERROR_CODES.cannotDisableSelf });
    expect(() => authorizeUserUpdate(asUser(admin), 2, { status: 'disabled' })).not.toThrow();
    expect(() => authorizeUserUpdate(asUser(admin), 1, { status: 'enabled', fullname: 'Me' })).not.toThrow();
  });

  it('lets only the command line set a password at creation', () => {
    expect(() => authorizeUserCreate(systemActor('cli'), { password: 'x' })).not.toThrow();
    expect(() => authorizeUserCreate(asUser(admin), { password: 'x' })).toThrow(HttpError);
    expect(() => authorizeUserCreate(asUser(admin), {})).not.toThrow();
  });

  it('computes abilities for a signed-in user only', () => {
    expect(callerOf(asUser(admin))).toMatchObject({ id: 1, type: 'admin' });
    expect(callerOf(systemActor('cli'))).toBeNull();
  });
});

/**
 * The client's tests build their fixtures' `can` with client/test/abilities.ts, which restates the
 * policies from the capability tables (client/ may not import server/): every fixture must be what
 * the policy answers, for every type, role and case the fixture takes, so that a change of a rule
 * that the fixtures do not follow fails here rather than leaving the client's tests on a rule gone.
 */
describe("the client tests' abilities fixtures", () => {
  const roles = [...ROLES];
  // the fixtures are of a portal with the CRM sync and card payments on
  const everyIntegration = { crm: true, payments: true };

  it('give each type and role the profile abilities the auth policy gives', () => {
    for (const type of USER_TYPES) {
      for (const yourRole of [null, ...roles]) {
        expect(fixtures.profileCan(type, yourRole), `${type} as ${yourRole}`).toEqual(
          profileAbilities({ type }, yourRole),
        );
      }
    }
  });

  it('give each role the customer, invitation and licence abilities their policies give', () => {
    for (const role of roles) {
      expect(fixtures.customerCan(role), role).toEqual(customerAbilities({ role }, everyIntegration));
      expect(fixtures.invitationCan(role), role).toEqual(invitationAbilities({ role }));
      for (const customizationType of CUSTOMIZATION_TYPES) {
        expect(fixtures.licenceCan(role, customizationType), `${role}, ${customizationType}`).toEqual(
          licenceAbilities({ role }, { customizationType }),
        );
        expect(fixtures.customizationCan(role, customizationType), `${role}, ${customizationType}`).toEqual(
          customizationAbilities({ role }, { customizationType }),
        );
      }
    }
  });

  it("give each role the member abilities the members policy gives, on another's row and their own", () => {
    for (const role of roles) {
      for (const memberRole of MEMBER_ROLES) {
        expect(fixtures.memberCan(role, { role: memberRole }), `${role} on ${memberRole}`).toEqual(
          memberAbilities(me, { role }, { ...someoneElse, role: memberRole }),
        );
        expect(fixtures.memberCan(role, { role: memberRole, self: true }), `${role} on self`).toEqual(
          memberAbilities(me, { role }, { userId: me.id, role: memberRole }),
        );
      }
    }
  });

  it('give each type the product, version and user abilities the catalogue and users policies give', () => {
    for (const type of USER_TYPES) {
      expect(fixtures.productCan(type), type).toEqual(productAbilities({ type }));
      for (const published of [false, true]) {
        expect(fixtures.versionCan(type, { published }), `${type}, published ${published}`).toEqual(
          versionAbilities({ type }, { published }),
        );
      }
      expect(fixtures.userCan({ type }), type).toEqual(userAbilities({ id: 1, type }, { id: 2 }));
      expect(fixtures.userCan({ type, self: true }), `${type} on self`).toEqual(
        userAbilities({ id: 1, type }, { id: 1 }),
      );
    }
  });
});
