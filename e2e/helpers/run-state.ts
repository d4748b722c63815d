import type { PortalServer } from './portal-server';
import type { SmtpPeer } from './smtp-peer';

export interface RunState {
  runDir: string;
  smtp: SmtpPeer | null;
  portal: PortalServer | null;
}

// globalSetup and globalTeardown run in the same runner process but may be loaded as separate
// module instances, so the handles live on globalThis rather than in a module variable.
const KEY = Symbol.for('portal.e2e.runState');

export function setRunState(state: RunState): void {
  (globalThis as Record<symbol, unknown>)[KEY] = state;
}

export function getRunState(): RunState | undefined {
  return (globalThis as Record<symbol, unknown>)[KEY] as RunState | undefined;
}
