// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { createChallenge, solveChallenge, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { describe, expect, it, vi } from 'vitest';
import { CAPTCHA_ALGORITHM, type CaptchaChallenge } from '../../../common/api/auth';
import { apiError, fakeApi, type FakeAnswer } from '../../test/fake-api';
import { renderPublicPage } from '../../test/render';
import { Captcha } from './Captcha';
import { ProofOfWork } from './ProofOfWork';

const SECRET = 'captcha-test-secret';

/** A challenge as the server makes it (server/integrations/captcha/builtin.ts), cheap to solve. */
async function serverChallenge(validForSeconds = 300): Promise<CaptchaChallenge> {
  return (await createChallenge({
    algorithm: CAPTCHA_ALGORITHM,
    cost: 10,
    counter: 7,
    deriveKey,
    expiresAt: new Date(Date.now() + validForSeconds * 1000),
    hmacSignatureSecret: SECRET,
    hmacKeySignatureSecret: `${SECRET}-key`,
  })) as CaptchaChallenge;
}

/** The solver the browser runs in its workers, here in the test's own thread. */
const solveHere = (challenge: CaptchaChallenge, controller: AbortController) =>
  solveChallenge({ challenge, controller, deriveKey });

/** What the box's live region says about it (its description). */
const statusOf = (box: HTMLElement) => document.getElementById(box.getAttribute('aria-describedby') ?? '')?.textContent;

function renderWidget(answer: () => Promise<FakeAnswer> | FakeAnswer, path = '/en/login') {
  const api = fakeApi({ 'GET /api/captcha/challenge': answer });
  const onChange = vi.fn();
  renderPublicPage(<ProofOfWork onChange={onChange} solve={solveHere} />, { path });
  return { api, onChange };
}

describe('the self-hosted captcha', () => {
  it('is loaded by Captcha as a box to tick, in the page language', async () => {
    fakeApi({});
    renderPublicPage(<Captcha onChange={vi.fn()} />, { path: '/fr/login' });
    const box = await screen.findByRole('checkbox', { name: 'Je ne suis pas un robot' });
    expect((box as HTMLInputElement).checked).toBe(false);
  });

  it('once ticked, fetches a challenge, solves it and hands over an answer the server accepts', async () => {
    const challenge = await serverChallenge();
    const { api, onChange } = renderWidget(() => ({ status: 200, body: challenge }));
    const box = screen.getByRole('checkbox', { name: 'I am not a robot' });
    // A native checkbox: Space and a click both toggle it, and say so to assistive technology.
    act(() => void fireEvent.click(box));

    await screen.findByText('Verified');
    expect((box as HTMLInputElement).checked).toBe(true);
    expect(statusOf(box)).toBe('Verified');
    expect(api.calls('GET /api/captcha/challenge')).toHaveLength(1);
    const answer = onChange.mock.lastCall?.[0] as string;
    const payload = JSON.parse(atob(answer)) as Parameters<typeof verifySolution>[0];
    expect(payload.challenge).toEqual({ parameters: challenge.parameters, signature: challenge.signature });
    const result = await verifySolution({
      challenge: payload.challenge,
      solution: payload.solution,
      deriveKey,
      hmacSignatureSecret: SECRET,
      hmacKeySignatureSecret: `${SECRET}-key`,
    });
    expect(result.verified).toBe(true);

    // Unticked, the answer is taken back.
    act(() => void fireEvent.click(box));
    expect((box as HTMLInputElement).checked).toBe(false);
    expect(onChange).toHaveBeenLastCalledWith(null);
  });

  it('says when the challenge cannot be had, and tries again when ticked again', async () => {
    let refuse = true;
    const challenge = await serverChallenge();
    const { onChange } = renderWidget(() =>
      refuse ? apiError(429, 'rate_limited', 'Too many requests') : { status: 200, body: challenge },
    );
    const box = screen.getByRole('checkbox', { name: 'I am not a robot' });
    act(() => void fireEvent.click(box));
    await waitFor(() => expect(statusOf(box)).toBe('The verification failed, please try again.'));
    expect((box as HTMLInputElement).checked).toBe(false);
    expect(onChange).toHaveBeenLastCalledWith(null);

    refuse = false;
    act(() => void fireEvent.click(box));
    await screen.findByText('Verified');
    expect(onChange.mock.lastCall?.[0]).toEqual(expect.any(String));
  });

  it('takes the answer back when its challenge expires, and asks for a new tick', async () => {
    const challenge = await serverChallenge(1);
    const { onChange } = renderWidget(() => ({ status: 200, body: challenge }));
    const box = screen.getByRole('checkbox', { name: 'I am not a robot' });
    act(() => void fireEvent.click(box));
    await screen.findByText('Verified');
    await waitFor(() => expect(statusOf(box)).toBe('The verification expired, please tick the box again.'), {
      timeout: 3000,
    });
    expect((box as HTMLInputElement).checked).toBe(false);
    expect(onChange).toHaveBeenLastCalledWith(null);
  });

  it('stops solving when it leaves the page', async () => {
    const challenge = await serverChallenge();
    let stopped: AbortSignal | undefined;
    fakeApi({ 'GET /api/captcha/challenge': () => ({ status: 200, body: challenge }) });
    const onChange = vi.fn();
    const view = renderPublicPage(
      <ProofOfWork
        onChange={onChange}
        solve={(_challenge, controller) => {
          stopped = controller.signal;
          return new Promise(() => {});
        }}
      />,
    );
    const box = screen.getByRole('checkbox', { name: 'I am not a robot' });
    act(() => void fireEvent.click(box));
    await waitFor(() => expect(stopped).toBeDefined());
    expect(statusOf(box)).toBe('Verifying…');
    act(() => view.unmount());
    expect(stopped?.aborted).toBe(true);
  });
});
