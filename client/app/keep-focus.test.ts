// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keepFocusThroughBusyControls } from './keep-focus';

/** Lets the observer see the attribute changes made so far. */
const observed = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('keepFocusThroughBusyControls', () => {
  let stop: () => void;
  let busy: HTMLButtonElement;
  let other: HTMLButtonElement;

  beforeEach(() => {
    document.body.innerHTML = '<button id="busy">Resend</button><button id="other">Copy</button>';
    busy = document.getElementById('busy') as HTMLButtonElement;
    other = document.getElementById('other') as HTMLButtonElement;
    stop = keepFocusThroughBusyControls();
  });
  afterEach(() => {
    stop();
    document.body.innerHTML = '';
  });

  /** What a browser does to a focused control that is disabled: the focus falls to the body. */
  const disable = async (button: HTMLButtonElement) => {
    button.blur();
    button.disabled = true;
    await observed();
  };

  it('gives the focus back to a control once it is enabled again', async () => {
    busy.focus();
    await disable(busy);
    expect(document.activeElement).toBe(document.body);
    busy.disabled = false;
    await observed();
    expect(document.activeElement).toBe(busy);
  });

  it('leaves the focus where the user moved it meanwhile', async () => {
    busy.focus();
    await disable(busy);
    other.focus();
    busy.disabled = false;
    await observed();
    expect(document.activeElement).toBe(other);
  });

  it('does nothing for a control that did not hold the focus', async () => {
    other.focus();
    other.blur();
    await disable(busy);
    busy.disabled = false;
    await observed();
    expect(document.activeElement).toBe(document.body);
  });

  it('stops when asked', async () => {
    busy.focus();
    stop();
    await disable(busy);
    busy.disabled = false;
    await observed();
    expect(document.activeElement).toBe(document.body);
  });
});
