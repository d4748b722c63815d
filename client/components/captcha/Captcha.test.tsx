// @vitest-environment jsdom
import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../test/fake-api';
import { renderPublicPage } from '../../test/render';
import { Captcha } from './Captcha';

function renderCaptcha(path = '/en/login') {
  fakeApi({});
  const onChange = vi.fn();
  renderPublicPage(<Captcha onChange={onChange} />, { path });
  return onChange;
}

const stateChange = (state: string, payload: string | null) =>
  new CustomEvent('statechange', { detail: { state, payload } });

describe('Captcha (self-hosted)', () => {
  it('loads the altcha widget pointed at the portal challenge, in the page language', async () => {
    renderCaptcha('/fr/login');
    await screen.findByRole('checkbox', { name: 'Je ne suis pas un robot' });
    const widget = screen.getByTestId('captcha').querySelector('altcha-widget')!;
    expect(widget.getConfiguration()).toMatchObject({
      challenge: '/api/captcha/challenge',
      language: 'fr',
      hideFooter: true,
    });
  });

  it('hands over the answer once verified, and takes it back when it expires or fails', async () => {
    const onChange = renderCaptcha();
    await screen.findByRole('checkbox', { name: 'I am not a robot' });
    // Looked up at each step: the page may render the captcha anew while its data arrives.
    const send = (state: string, payload: string | null) =>
      act(
        () =>
          void screen.getByTestId('captcha').querySelector('altcha-widget')!.dispatchEvent(stateChange(state, payload)),
      );

    await waitFor(() => {
      send('verified', 'c29sdmVk');
      expect(onChange).toHaveBeenLastCalledWith('c29sdmVk');
    });
    send('expired', null);
    expect(onChange).toHaveBeenLastCalledWith(null);
    send('verified', 'c29sdmVk');
    send('verifying', null);
    expect(onChange).toHaveBeenLastCalledWith(null);
    send('error', 'c29sdmVk');
    expect(onChange).toHaveBeenLastCalledWith(null);
  });
});
