/**
 * The portal's mark: three linked nodes, a graph, on the theme's primary colour. Decorative; the link
 * around it carries the name. public/favicon.svg draws the same shape.
 */
export function LogoMark({ size = 28 }: { size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 32 32"
      aria-hidden="true"
      focusable="false"
      data-testid="logo-mark"
      style={{ flexShrink: 0, display: 'block' }}
    >
      <rect width="32" height="32" rx="8" fill="var(--mantine-primary-color-filled)" />
      <g stroke="#fff" strokeWidth="2" strokeLinecap="round">
        <path d="M9 22 16 9l7 13Z" fill="none" />
        <path d="M16 17V9M16 17l-7 5M16 17l7 5" />
      </g>
      <g fill="#fff">
        <circle cx="16" cy="9" r="3.5" />
        <circle cx="9" cy="22" r="3.5" />
        <circle cx="23" cy="22" r="3.5" />
        <circle cx="16" cy="17" r="2" />
      </g>
    </svg>
  );
}
