import type { SessionUser } from '../../actor';
import { holdsGlobally } from '../../policy';

type User = Pick<SessionUser, 'type'>;

/**
 * A notification about a product (a new version) links to the product's page only for whom may open
 * it (spec section 2, /products/:key: product managers and admins); for anyone else it links nowhere.
 */
export const mayOpenProductPage = (user: User): boolean => holdsGlobally(user, 'viewProducts');
