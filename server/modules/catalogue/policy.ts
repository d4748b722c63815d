import type { ProductAbilities, VersionAbilities } from '../../../common/api/abilities';
import type { SessionUser } from '../../actor';
import { holdsGlobally } from '../../policy';
import { mayDeleteArtifact, mayUploadArtifact } from '../artifacts/policy';

type User = Pick<SessionUser, 'type'>;

/** A product: its fields by an admin (editProduct), its versions by product managers and admins. */
export function productAbilities(user: User | null): ProductAbilities {
  return {
    edit: user !== null && holdsGlobally(user, 'editProduct'),
    manageVersions: user !== null && holdsGlobally(user, 'manageVersions'),
  };
}

/**
 * A version: who manages versions edits it (a published one keeps its title and semVer), publishes it
 * once, and changes its files while it is unpublished (artifacts/policy.ts, docs/decisions/036). A
 * customer's contact, who reads the versions their licence allows, may do none of it.
 */
export function versionAbilities(user: User | null, version: { published: boolean }): VersionAbilities {
  const manage = user !== null && holdsGlobally(user, 'manageVersions');
  return {
    edit: manage,
    publish: manage && !version.published,
    upload: mayUploadArtifact(user, version),
    deleteArtifacts: mayDeleteArtifact(user, version),
  };
}

/**
 * Every version of a product (unpublished ones too) is listed to those who see the products; a
 * customer's contacts are listed what their licence allows, through the customer (the route's rule).
 */
export const mayListEveryVersion = (user: User): boolean => holdsGlobally(user, 'viewProducts');
