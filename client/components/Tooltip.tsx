import type { TooltipProps } from '@mantine/core';
import {
  cloneElement,
  type ComponentType,
  isValidElement,
  type ReactElement,
  type Ref,
  useCallback,
  useEffect,
  useRef,
} from 'react';
import { lazyCode, whenIdle } from '../app/lazy-code';

/**
 * Mantine's Tooltip, whose code (and floating-ui's, which positions it) comes once the page has
 * painted rather than with it (decision 092): a tooltip only shows on hover or focus, and the control
 * it labels carries the same words as its accessible name. Until then the control is drawn alone, at
 * the same place and size (a tooltip adds no box around its target), so nothing moves when it comes.
 * The control is drawn again inside the tooltip then: if it had the focus, it keeps it.
 */
export function lazyTooltip(load: () => Promise<ComponentType<TooltipProps>>) {
  const code = lazyCode(load);
  function Tooltip({ children, ...props }: TooltipProps) {
    const Loaded = code.useLoaded();
    useEffect(() => {
      if (!Loaded) whenIdle(() => void code.fetch().catch(() => {}));
    }, [Loaded]);

    // the control's element, and whether it had the focus when it was taken out for its tooltip's
    const node = useRef<HTMLElement | null>(null);
    const hadFocus = useRef(false);
    const carryFocus = useCallback((element: HTMLElement | null) => {
      if (element === null) {
        hadFocus.current = node.current !== null && node.current === document.activeElement;
      } else if (hadFocus.current) {
        hadFocus.current = false;
        element.focus();
      }
      node.current = element;
    }, []);

    if (!isValidElement(children)) return children;
    const control = cloneElement(children as ReactElement<{ ref?: Ref<HTMLElement> }>, { ref: carryFocus });
    return Loaded ? <Loaded {...props}>{control}</Loaded> : control;
  }
  return { Tooltip, preload: code.fetch };
}

const tooltip = lazyTooltip(() => import('./tooltip-code').then((module) => module.Tooltip));
export const Tooltip = tooltip.Tooltip;
/** Fetches the tooltip's code now: tests render with it, as a user finds it once the page has painted. */
export const preloadTooltip = tooltip.preload;
