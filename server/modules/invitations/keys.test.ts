import { describe, expect, it } from 'vitest';
import { hashToken } from '../auth/tokens';
import {
  invitationKeyHash,
  invitationLink,
  issueInvitationKey,
  newInvitationKey,
  sealInvitationKey,
  unsealInvitationKey,
} from './keys';

const SECRET = 'a-server-secret-of-at-least-32-characters';

describe('invitation keys', () => {
  it('are 256 random bits in base64url, different every time', () => {
    const keys = new Set(Array.from({ length: 50 }, newInvitationKey));
    expect(keys.size).toBe(50);
    for (const key of keys) {
      expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(key, 'base64url')).toHaveLength(32);
    }
  });

  it('are stored as their SHA-256, the hash reset tokens use', () => {
    const key = newInvitationKey();
    expect(invitationKeyHash(key)).toBe(hashToken(key));
    expect(invitationKeyHash(key)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('come back from their sealed form under the same secret only', () => {
    const { key, keyHash, keySealed } = issueInvitationKey(SECRET);
    expect(keyHash).toBe(hashToken(key));
    expect(keySealed).not.toContain(key);
    expect(unsealInvitationKey(SECRET, keySealed)).toBe(key);
    expect(unsealInvitationKey(`${SECRET}-rotated`, keySealed)).toBeNull();
  });

  it('are sealed differently each time, and an altered seal opens nothing', () => {
    const key = newInvitationKey();
    const first = sealInvitationKey(SECRET, key);
    const second = sealInvitationKey(SECRET, key);
    expect(first).not.toBe(second);
    const [version, iv, tag, data] = first.split('.');
    const flipped = `${data[0] === 'A' ? 'B' : 'A'}${data.slice(1)}`;
    expect(unsealInvitationKey(SECRET, [version, iv, tag, flipped].join('.'))).toBeNull();
    expect(unsealInvitationKey(SECRET, 'garbage')).toBeNull();
    expect(unsealInvitationKey(SECRET, `v2.${iv}.${tag}.${data}`)).toBeNull();
  });

  it('make the link of the accepting page, in the invitation language', () => {
    expect(invitationLink('https://portal.example.com', 'fr', 'abc_-1')).toBe(
      'https://portal.example.com/fr/invitation/abc_-1',
    );
  });
});
