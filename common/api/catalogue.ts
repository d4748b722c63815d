import { z } from 'zod/mini';
import { ACCESS_LEVELS, CUSTOMIZATION_TYPES, PLATFORMS, VERSION_TYPES } from '../domain';
import { MAX_PAGE_LENGTH } from '../pagination';
import { ProductAbilities, VersionAbilities } from './abilities';
import { listOf, MAX_ID, PageQuery, REQUIRED, RequiredText, requiredIfMissing, wholeNumber } from './common';

/**
 * The catalogue (spec sections 3, 5 and 7): products, their versions and the versions' artifacts,
 * and the API tokens a release pipeline uploads artifacts with (docs/decisions/036).
 */

/** Message keys of the catalogue's rules (client/i18n `catalogue.errors.*`); the server sends them in details. */
export const CATALOGUE_ERRORS = {
  productKey: 'catalogue.errors.productKey',
  semVer: 'catalogue.errors.semVer',
  fileName: 'catalogue.errors.fileName',
} as const;

/** A product's key: lower-case letters, digits and dashes, as it appears in URLs and licence files. */
export const PRODUCT_KEY = /^[a-z0-9](?:[a-z0-9-]{0,48}[a-z0-9])?$/;

/** Semantic Versioning 2.0.0, the expression semver.org gives (no leading "v"). */
export const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

export const Product = z.object({
  key: z.string(),
  name: z.string(),
  description: z.string(),
  customizationType: z.enum(CUSTOMIZATION_TYPES),
  isSaas: z.boolean(),
  /** what the caller may do with it (server/modules/catalogue/policy.ts) */
  can: ProductAbilities,
});
export type Product = z.infer<typeof Product>;

/** `GET /api/products`: every product, by name (a vendor has tens, not thousands). */
export const ProductList = z.object({ data: z.array(Product) });
export type ProductList = z.infer<typeof ProductList>;

export const ProductKeyParam = z.object({
  key: z.string().check(z.maxLength(50), z.regex(PRODUCT_KEY, CATALOGUE_ERRORS.productKey)),
});

/** `POST /api/products` (spec section 5): key, name, description and customization type required. */
export const CreateProductBody = z.strictObject({
  key: z
    .string({ error: requiredIfMissing })
    .check(
      z.trim(),
      z.toLowerCase(),
      z.minLength(1, REQUIRED),
      z.maxLength(50),
      z.regex(PRODUCT_KEY, CATALOGUE_ERRORS.productKey),
    ),
  name: RequiredText(100),
  description: RequiredText(2000),
  customizationType: z._default(z.enum(CUSTOMIZATION_TYPES), 'none'),
  isSaas: z._default(z.boolean(), false),
});
export type CreateProductBody = z.infer<typeof CreateProductBody>;

/** `PATCH /api/products/{key}`: the key stays. */
export const UpdateProductBody = z.strictObject({
  name: z.optional(RequiredText(100)),
  description: z.optional(RequiredText(2000)),
  customizationType: z.optional(z.enum(CUSTOMIZATION_TYPES)),
  isSaas: z.optional(z.boolean()),
});
export type UpdateProductBody = z.infer<typeof UpdateProductBody>;

export const Artifact = z.object({
  id: z.int(),
  platform: z.enum(PLATFORMS),
  fileName: z.string(),
  size: z.number(),
  sha256: z.string(),
  createdAt: z.string(),
});
export type Artifact = z.infer<typeof Artifact>;

export const Version = z.object({
  id: z.int(),
  productKey: z.string(),
  productName: z.string(),
  title: z.string(),
  type: z.enum(VERSION_TYPES),
  semVer: z.string(),
  /** Markdown; rendered without raw HTML and without javascript: links */
  description: z.string(),
  /** the description rendered by the server (server/markdown.ts): safe to insert as HTML */
  descriptionHtml: z.string(),
  /** the day it was published, `YYYY-MM-DD`; null while unpublished */
  releaseDate: z.nullable(z.string()),
  published: z.boolean(),
  artifacts: z.array(Artifact),
  /**
   * The access levels whose newest published version of the product this is (the "Latest" badge):
   * in a customer's view only its licence's level, in the staff's every level it is newest for.
   */
  latestFor: z.array(z.enum(ACCESS_LEVELS)),
  /** what the caller may do with it (server/modules/catalogue/policy.ts) */
  can: VersionAbilities,
});
export type Version = z.infer<typeof Version>;

/** Newest first by semantic version (1.10.0 before 1.9.0, a release before its pre-releases). */
export const VersionList = listOf(Version);
export type VersionList = z.infer<typeof VersionList>;

export const VERSION_PAGE_LENGTH = 10;

/**
 * `GET /api/products/{key}/versions?customerId&pageOffset&pageLength`. With a customerId, the versions
 * that customer's licence of the product allows (decisions.md: access level gates types; never an
 * unpublished one); without, every version, for productManager and admin.
 */
export const VersionListQuery = z.object({
  customerId: z.optional(wholeNumber(1, MAX_ID)),
  /** only the versions newer than this one by semantic version ("what changed since the version I run") */
  since: z.optional(z.string().check(z.maxLength(100), z.regex(SEMVER, CATALOGUE_ERRORS.semVer))),
  pageOffset: PageQuery.shape.pageOffset,
  pageLength: z._default(wholeNumber(1, MAX_PAGE_LENGTH), VERSION_PAGE_LENGTH),
});
export type VersionListQuery = z.infer<typeof VersionListQuery>;

const SemVer = z
  .string({ error: requiredIfMissing })
  .check(z.trim(), z.minLength(1, REQUIRED), z.maxLength(100), z.regex(SEMVER, CATALOGUE_ERRORS.semVer));

/** `POST /api/products/{key}/versions` (spec section 5): title, type, semVer and description required. */
export const CreateVersionBody = z.strictObject({
  title: RequiredText(200),
  type: z._default(z.enum(VERSION_TYPES), 'stable'),
  semVer: SemVer,
  description: RequiredText(20_000),
  published: z._default(z.literal(false), false),
});
export type CreateVersionBody = z.infer<typeof CreateVersionBody>;

/**
 * `PATCH /api/versions/{id}`: an unpublished version takes every field and `published: true`, which is
 * final; a published one only description and type (409 otherwise).
 */
export const UpdateVersionBody = z.strictObject({
  title: z.optional(RequiredText(200)),
  type: z.optional(z.enum(VERSION_TYPES)),
  semVer: z.optional(SemVer),
  description: z.optional(RequiredText(20_000)),
  published: z.optional(z.literal(true)),
});
export type UpdateVersionBody = z.infer<typeof UpdateVersionBody>;

export const PlatformParam = z.object({ platform: z.enum(PLATFORMS) });

/** `/api/versions/{id}/artifacts/{platform}` */
export const VersionPlatformParams = z.object({ id: wholeNumber(1, MAX_ID), platform: z.enum(PLATFORMS) });

/**
 * `PUT /api/versions/{id}/artifacts/{platform}?fileName=`: the body is the file's bytes. Its name comes
 * from `fileName`, else a `Content-Disposition` header's, else `{product}-{semVer}-{platform}.{ext}`;
 * no path, at most 255 characters.
 */
export const UploadArtifactQuery = z.object({ fileName: z.optional(z.string().check(z.maxLength(255))) });

/** The largest file name an artifact may have. */
export const MAX_ARTIFACT_FILE_NAME = 255;

/** A product's API token, as listed: the token itself is shown once, when created. */
export const ProductToken = z.object({
  id: z.int(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.nullable(z.string()),
});
export type ProductToken = z.infer<typeof ProductToken>;

export const ProductTokenList = z.object({ data: z.array(ProductToken) });
export type ProductTokenList = z.infer<typeof ProductTokenList>;

/** `/api/products/{key}/tokens/{id}` */
export const ProductTokenParams = z.object({ ...ProductKeyParam.shape, id: wholeNumber(1, MAX_ID) });

export const CreateProductTokenBody = z.strictObject({ name: RequiredText(100) });
export type CreateProductTokenBody = z.infer<typeof CreateProductTokenBody>;

/** The answer to creating a token: the only time `token` is sent. */
export const CreatedProductToken = z.object({ ...ProductToken.shape, token: z.string() });
export type CreatedProductToken = z.infer<typeof CreatedProductToken>;

/** `GET /api/download/{platform}?customerId&versionId&check` */
export const DownloadQuery = z.object({
  customerId: wholeNumber(1, MAX_ID),
  versionId: wholeNumber(1, MAX_ID),
  check: z.optional(z.string()),
});
export type DownloadQuery = z.infer<typeof DownloadQuery>;

/** The answer to a download's `check`: the download would be served (a refusal is the error body). */
export const DownloadCheck = z.object({ ok: z.literal(true) });
export type DownloadCheck = z.infer<typeof DownloadCheck>;

/** The secret URL's path: `latest` or a semantic version, so nothing else (no `..`, no `/`) gets through. */
export const SecretDownloadParams = z.object({
  platform: z.enum(PLATFORMS),
  productKey: ProductKeyParam.shape.key,
  semVer: z.string().check(
    z.maxLength(100),
    z.refine((value) => value === 'latest' || SEMVER.test(value), CATALOGUE_ERRORS.semVer),
  ),
});
export type SecretDownloadParams = z.infer<typeof SecretDownloadParams>;

export const SecretDownloadQuery = z.object({
  secret: z.string({ error: requiredIfMissing }).check(z.minLength(1, REQUIRED), z.maxLength(200)),
});
export type SecretDownloadQuery = z.infer<typeof SecretDownloadQuery>;

const part = (value: string) => encodeURIComponent(value);

/** The secret URL a script downloads with (spec section 7), `latest` accepted as semVer. */
export function secretDownloadPath(platform: string, productKey: string, semVer: string, secret: string): string {
  return `/api/get/${part(platform)}/${part(productKey)}/${part(semVer)}/?secret=${part(secret)}`;
}

/** `GET /api/get/sums/{productKey}/{semVer}/?secret=`: a version's checksums; `latest` accepted as semVer. */
export const SecretSumsParams = z.object({
  productKey: SecretDownloadParams.shape.productKey,
  semVer: SecretDownloadParams.shape.semVer,
});
export type SecretSumsParams = z.infer<typeof SecretSumsParams>;

/**
 * The `SHA256SUMS` text of a version by the licence's download secret (`sha256sum -c` reads it), for
 * the files of that version the secret URL serves; `latest` accepted as semVer (docs/decisions/080).
 */
export function secretSumsPath(productKey: string, semVer: string, secret: string): string {
  return `/api/get/sums/${part(productKey)}/${part(semVer)}/?secret=${part(secret)}`;
}

/** `GET /api/feeds/{productKey}.atom?secret=` */
export const VersionFeedParams = z.object({ productKey: SecretDownloadParams.shape.productKey });
export type VersionFeedParams = z.infer<typeof VersionFeedParams>;

/**
 * The Atom feed of the versions a licence allows, by its download secret: what a feed reader or a
 * build robot subscribes to (docs/decisions/080). Rotating the secret ends the old address.
 */
export function versionFeedPath(productKey: string, secret: string): string {
  return `/api/feeds/${part(productKey)}.atom?secret=${part(secret)}`;
}
