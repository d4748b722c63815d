// Types of check-bundle-size.mjs for its test.
export interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
export type Manifest = Record<string, ManifestChunk>;
export interface Sizes {
  raw: number;
  gzip: number;
  brotli: number;
}
export interface Route {
  name: string;
  /** The HTML page that serves the route (a manifest key); the first entry when left out. */
  entry?: string;
  /** Enforced; left out, the route has only a goal, printed. */
  budgetKb?: number;
  /** Where the route should get to; printed, not enforced. */
  goalKb?: number;
  lazy: string[];
}
export interface Row extends Sizes {
  name: string;
  files: string[];
  budgetKb?: number;
  goalKb?: number;
  over: boolean;
  /** another HTML page's entry chunk among the route's files: that page's code would run in this one */
  strays: string[];
}
export function compressedSizes(buffer: Buffer): Sizes;
export function measure(options: {
  manifest: Manifest;
  jsFiles: string[];
  sizeOf: (file: string) => Sizes;
  routes?: Route[];
  appBudgetKb?: number;
  /** Printed beside the whole app's budget, not enforced. */
  appGoalKb?: number;
}): Row[];
export function formatTable(rows: Row[], sizeOf: (file: string) => Sizes, options?: { details?: boolean }): string;
