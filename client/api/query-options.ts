import type { queryOptions as typedQueryOptions } from '@tanstack/react-query';

/**
 * react-query's `queryOptions`, which only hands back its argument with its types. The sign-in pages
 * import ./auth.ts for its calls, not its queries: importing the package there would put react-query
 * in what those pages are built from (vite.config.ts, decision 054).
 */
export const queryOptions = ((options: unknown) => options) as typeof typedQueryOptions;
