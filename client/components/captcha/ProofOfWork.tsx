import './captcha.css';
import type { Solution } from 'altcha-lib';
import { useEffect, useId, useRef, useState } from 'react';
import { CaptchaChallenge } from '../../../common/api/auth';
import { api } from '../../api/client';
import { useTranslation } from '../../i18n/use-translation';
import { solveInWorkers } from './solve';

type State = 'idle' | 'verifying' | 'verified' | 'failed' | 'expired';

const STATUS_KEYS: Record<State, string | null> = {
  idle: null,
  verifying: 'captcha.verifying',
  verified: 'captcha.verified',
  failed: 'captcha.failed',
  expired: 'captcha.expired',
};

/**
 * The answer the server checks: base64 of `{ challenge: { parameters, signature }, solution }`, the
 * ALTCHA v2 payload, as server/integrations/captcha/solve.ts makes it for the API tests.
 */
function answerOf({ parameters, signature }: CaptchaChallenge, solution: Solution): string {
  return btoa(JSON.stringify({ challenge: { parameters, signature }, solution }));
}

interface ProofOfWorkProps {
  onChange: (response: string | null) => void;
  /** How a challenge is solved; the workers in the browser, another solver in unit tests. */
  solve?: typeof solveInWorkers;
}

/**
 * The self-hosted captcha (decision 003, widget of decision 074): a box to tick; ticking it fetches
 * a challenge, solves it in web workers and hands the answer over, until the challenge expires. A
 * native checkbox, so the keyboard, the label and the checked state work as any other, with the
 * state said in a live region. Loaded only when a captcha is shown (Captcha.tsx).
 */
export function ProofOfWork({ onChange, solve = solveInWorkers }: ProofOfWorkProps) {
  const { t } = useTranslation();
  const [state, setState] = useState<State>('idle');
  const statusId = useId();
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  // What the current attempt holds: stopped by an untick, a new attempt or leaving the page.
  const attempt = useRef<{ controller: AbortController; expiry?: ReturnType<typeof setTimeout> } | null>(null);

  const stop = () => {
    attempt.current?.controller.abort();
    clearTimeout(attempt.current?.expiry);
    attempt.current = null;
  };
  useEffect(() => stop, []);

  const settle = (next: State, response: string | null = null) => {
    setState(next);
    onChangeRef.current(response);
  };

  async function verify() {
    stop();
    const current = { controller: new AbortController() } as NonNullable<typeof attempt.current>;
    attempt.current = current;
    settle('verifying');
    try {
      const challenge = await api.get('/captcha/challenge', {
        schema: CaptchaChallenge,
        signal: current.controller.signal,
      });
      const solution = await solve(challenge, current.controller);
      if (attempt.current !== current) return;
      if (!solution) return settle('failed');
      settle('verified', answerOf(challenge, solution));
      // The server refuses an answer after its challenge's expiry: the box asks to be ticked again. A
      // clock already past it (set wrong) leaves the verdict to the server rather than never verifying.
      const left = challenge.parameters.expiresAt * 1000 - Date.now();
      if (left > 0) current.expiry = setTimeout(() => settle('expired'), left);
    } catch {
      if (attempt.current === current) settle('failed');
    }
  }

  function toggle() {
    if (state === 'verifying') return;
    if (state === 'verified') {
      stop();
      return settle('idle');
    }
    void verify();
  }

  const status = STATUS_KEYS[state];
  return (
    <div className="captcha-box" data-state={state}>
      <label className="captcha-label">
        <input
          type="checkbox"
          className="captcha-checkbox"
          checked={state === 'verified'}
          onChange={toggle}
          aria-busy={state === 'verifying'}
          aria-describedby={statusId}
        />
        {t('captcha.label')}
      </label>
      <span className="captcha-status" id={statusId} role="status">
        {state === 'verifying' && <span className="p-spinner" aria-hidden="true" />}
        {status && t(status)}
      </span>
    </div>
  );
}
