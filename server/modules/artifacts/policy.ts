import type { SessionUser } from '../../actor';
import { holdsGlobally } from '../../policy';

/**
 * A version's artifacts (docs/decisions/036). Who reaches the routes is the route's rule: those who
 * manage versions, or a product API token of the version's product for the upload. Whoever it is, a
 * published version's files stay as they were downloaded (409 otherwise).
 */
export const artifactsMayChange = (version: { published: boolean }): boolean => !version.published;

/** A signed-in user uploads (or replaces) a version's file: who manages versions, while it may change. */
export const mayUploadArtifact = (user: Pick<SessionUser, 'type'> | null, version: { published: boolean }): boolean =>
  user !== null && holdsGlobally(user, 'manageVersions') && artifactsMayChange(version);

/** A signed-in user removes a version's file: who manages versions, while it may change. */
export const mayDeleteArtifact = (user: Pick<SessionUser, 'type'> | null, version: { published: boolean }): boolean =>
  user !== null && holdsGlobally(user, 'manageVersions') && artifactsMayChange(version);
