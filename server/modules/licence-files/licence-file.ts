import crypto from 'node:crypto';
import { ERROR_CODES } from '../../../common/api/errors';
import { LICENCE_FILE_FORMAT, type LicenceFile, type LicenceFilePayload } from '../../../common/api/licence-files';
import { allowsDownload, licenceStatus, utcToday } from '../../../common/licence-status';
import { type Actor, signedInUser } from '../../actor';
import type { AppContext } from '../../context';
import { nowIso } from '../../db';
import { HttpError, notFound } from '../../http-error';
import type { CustomerAccess } from '../../policy';
import { auditActorOf, insertAuditEntry } from '../audit/repo';
import { SIGNING_ALGORITHM } from './keys';
import * as repo from './repo';
import { activeSigner } from './service';

/** The signed licence file of a customer's licence (docs/licence-files.md, docs/decisions/032). */

export const LICENCE_NOT_FOUND = 'This customer has no license of this product';
/** The spec's message (section 8) for a licence past its grace period. */
export const LICENCE_EXPIRED = 'Your license is expired, please contact your account manager';

/** The payload as it travels (base64url of its UTF-8 JSON) and its signature over those very characters. */
function signPayload(payload: LicenceFilePayload, privateKey: crypto.KeyObject) {
  const encoded = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
  const signature = crypto.sign(null, Buffer.from(encoded, 'ascii'), privateKey).toString('base64url');
  return { payload: encoded, signature };
}

function parseData(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // stored data is always a JSON object; anything else is stated as empty rather than failing
  }
  return {};
}

/** Letters, digits, dot, dash and underscore of any script; anything else becomes "_". */
const fileNamePart = (text: string) => text.replace(/[^\p{L}\p{N}._-]+/gu, '_');

/**
 * `GET /api/download/license/{productKey}?customerId`: the signed licence file of the customer's
 * licence of the product, while the licence allows downloads (valid, warning or grace). The file and
 * its audit entry: the entry is written before the file is answered.
 */
export async function licenceFile(
  ctx: AppContext,
  actor: Actor,
  input: { customerAccess: CustomerAccess; productKey: string },
): Promise<{ file: LicenceFile; fileName: string }> {
  signedInUser(actor);
  const { customer } = input.customerAccess;
  const licence = await repo.findLicenceOfProduct(ctx.db, customer.id, input.productKey);
  if (!licence) throw notFound(LICENCE_NOT_FOUND);
  if (!allowsDownload(licenceStatus(licence.endDate, utcToday()))) {
    throw new HttpError(403, ERROR_CODES.licenceExpired, LICENCE_EXPIRED);
  }
  const signer = await activeSigner(ctx);
  const payload: LicenceFilePayload = {
    licenceId: licence.id,
    customer: { name: customer.name, key: customer.customerKey },
    product: { key: licence.productKey, name: licence.productName },
    accessLevel: licence.accessLevel,
    startDate: licence.startDate,
    endDate: licence.endDate,
    data: parseData(licence.data),
    issuedAt: nowIso(),
    keyId: signer.keyId,
  };
  const signed = signPayload(payload, signer.privateKey);
  await ctx.db.transaction().execute(async (trx) => {
    await insertAuditEntry(trx, {
      customerId: customer.id,
      by: auditActorOf(actor),
      action: 'downloadLicenceFile',
      data: { productName: licence.productName, productKey: licence.productKey, licenceId: licence.id },
    });
  });
  return {
    file: { format: LICENCE_FILE_FORMAT, algorithm: SIGNING_ALGORITHM, keyId: signer.keyId, ...signed },
    fileName: `${fileNamePart(customer.customerKey)}-${fileNamePart(licence.productKey)}.license.json`,
  };
}
