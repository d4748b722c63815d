import crypto from 'node:crypto';

/** The SHA-256 of a token, in hex: what the database keeps of reset, e-mail change and invitation keys. */
export const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');
