import { useCallback, useRef } from 'react';

/** 128 random bits as hex; `crypto.getRandomValues` works on plain HTTP too, unlike randomUUID. */
function randomScope(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** FNV-1a of a text: tells two bodies apart, nothing more (the scope makes the key unguessable). */
function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/**
 * The `Idempotency-Key` of a creating form (docs/decisions/047): one random scope per form shown,
 * and the body's fingerprint. The same values sent twice from one form (a double click, Save again
 * after a lost answer) carry one key, so the server creates once and answers both; changed values
 * are a new request with a new key.
 */
export function useIdempotencyKey(): (body: unknown) => string {
  const scope = useRef<string | null>(null);
  return useCallback((body: unknown) => {
    scope.current ??= randomScope();
    return `${scope.current}-${fingerprint(JSON.stringify(body ?? null))}`;
  }, []);
}
