import { ERROR_CODES, ErrorBody, type ErrorCode, type ErrorDetail } from '../common/api/errors';

/** An error with an HTTP status and a stable code; the error handler turns it into the one error body. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    /** headers the answer carries, such as Retry-After */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, details?: ErrorDetail[]) =>
  new HttpError(400, ERROR_CODES.validation, message, details);
export const unauthenticated = (message = 'Authentication required') =>
  new HttpError(401, ERROR_CODES.unauthenticated, message);
export const forbidden = (message = 'You are not allowed to do this') =>
  new HttpError(403, ERROR_CODES.forbidden, message);
export const notFound = (message = 'Not found') => new HttpError(404, ERROR_CODES.notFound, message);
export const conflict = (message: string) => new HttpError(409, ERROR_CODES.conflict, message);
/**
 * The request needs an optional integration this portal is not set up with: 409 with the
 * integration's own code, a refusal of what was asked rather than a fault of the server, which
 * monitoring would count as one; the abilities (`can`) say beforehand that it is unavailable.
 */
export const notConfigured = (
  code:
    | typeof ERROR_CODES.crmNotConfigured
    | typeof ERROR_CODES.supportDeskNotConfigured
    | typeof ERROR_CODES.paymentNotConfigured,
  message: string,
) => new HttpError(409, code, message);
/**
 * A refusal that belongs to one field of the request says which in `details`, with a message key the
 * client translates: forms map details to fields without knowing any error code.
 */
export const fieldDetail = (path: string, code: string) => [{ path, message: `apiErrors.${code}` }];

/** An e-mail address already belongs to another account (users, profile, later invitations). */
export const emailTaken = (message: string, path = 'email') =>
  new HttpError(409, ERROR_CODES.emailTaken, message, fieldDetail(path, ERROR_CODES.emailTaken));

/** The error answers a route declares in its schema: the one error body under each status. */
export const errorResponses = (...codes: number[]) => Object.fromEntries(codes.map((code) => [code, ErrorBody]));
