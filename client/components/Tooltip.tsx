import type { TooltipProps } from '@mantine/core';
import {
  cloneElement,
  type ComponentType,
  type FocusEvent,
  isValidElement,
  type KeyboardEvent,
  type MouseEvent,
  type ReactElement,
  type Ref,
  useEffect,
  useRef,
  useState,
} from 'react';
import { lazyCode, whenIdle } from '../app/lazy-code';

/** The handlers the tooltip adds to its control, beside the control's own. */
interface ControlProps {
  ref?: Ref<HTMLElement>;
  onMouseEnter?: (event: MouseEvent<HTMLElement>) => void;
  onMouseLeave?: (event: MouseEvent<HTMLElement>) => void;
  onFocus?: (event: FocusEvent<HTMLElement>) => void;
  onBlur?: (event: FocusEvent<HTMLElement>) => void;
  onKeyDown?: (event: KeyboardEvent<HTMLElement>) => void;
}

/**
 * Mantine's Tooltip, whose code (and floating-ui's, which positions it) comes once the page has
 * painted rather than with it (decision 092): a tooltip only shows on hover or focus, and the control
 * it labels carries the same words as its accessible name. The control is drawn at once, and stays
 * the same element when the tooltip's code comes (nothing moves, nothing is drawn again: a click or
 * the focus on it is never lost); the tooltip is then attached to it (Mantine's `target`), shown
 * while the pointer is over it or it has the focus, and hidden by Escape (WCAG 1.4.13).
 */
export function lazyTooltip(load: () => Promise<ComponentType<TooltipProps>>) {
  const code = lazyCode(load);
  function Tooltip({ children, ...props }: TooltipProps) {
    const Loaded = code.useLoaded();
    useEffect(() => {
      if (!Loaded) whenIdle(() => void code.fetch().catch(() => {}));
    }, [Loaded]);
    const target = useRef<HTMLElement | null>(null);
    const [hovered, setHovered] = useState(false);
    const [focused, setFocused] = useState(false);
    const [dismissed, setDismissed] = useState(false);

    if (!isValidElement(children)) return children;
    const own = (children as ReactElement<ControlProps>).props;
    const control = cloneElement(children as ReactElement<ControlProps>, {
      ref: target,
      onMouseEnter: (event) => {
        setHovered(true);
        setDismissed(false);
        own.onMouseEnter?.(event);
      },
      onMouseLeave: (event) => {
        setHovered(false);
        own.onMouseLeave?.(event);
      },
      onFocus: (event) => {
        setFocused(true);
        setDismissed(false);
        own.onFocus?.(event);
      },
      onBlur: (event) => {
        setFocused(false);
        own.onBlur?.(event);
      },
      onKeyDown: (event) => {
        if (event.key === 'Escape') setDismissed(true);
        own.onKeyDown?.(event);
      },
    });
    return (
      <>
        {control}
        {Loaded && <Loaded {...props} target={target} opened={(hovered || focused) && !dismissed} />}
      </>
    );
  }
  return { Tooltip, preload: code.fetch };
}

const tooltip = lazyTooltip(() => import('./tooltip-code').then((module) => module.Tooltip));
export const Tooltip = tooltip.Tooltip;
/** Fetches the tooltip's code now: tests render with it, as a user finds it once the page has painted. */
export const preloadTooltip = tooltip.preload;
