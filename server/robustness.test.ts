import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import en from '../client/i18n/en.json';
import fr from '../client/i18n/fr.json';
import { SESSION_COOKIE } from '../common/constants';
import { type CallOptions, type Fixture, MATRIX, MATRIX_METRICS_TOKEN, type MatrixRow } from './authorization.matrix';
import { systemActor } from './actor';
import { issueEmailChangeToken } from './modules/auth/email-change';
import { startSession } from './modules/sessions/service';
import { solvedCaptcha } from './modules/auth/test-helpers';
import { issuePasswordResetToken } from './modules/auth/tokens';
import { findLicence } from './modules/licences/repo';
import {
  addMembership,
  createCustomer,
  createCustomization,
  createInvitation,
  createLicence,
  createProduct,
  createUser,
  createVersionWithFiles,
  TEST_PASSWORD,
} from './test/factories';
import { pendingSignIn } from './test/two-factor';
import { addArtifactRow, createProductToken, createUnpublishedVersion } from './test/artifacts';
import { createSignup } from './test/signups';
import { createWebhookDelivery, createWebhookEndpoint } from './test/webhooks';
import { createInstance } from './test/instances';
import { failedDownloadRecords, failedJobOf } from './test/jobs';
import { makeSelfService, signedEvent, stripeEvent, testCheckoutSession } from './test/billing';
import { oidcEnv, startInteraction } from './test/oidc';
import { createTestApp, request, TEST_DIALECT, type TestApp } from './test/harness';

/**
 * "Never a 500": every API route, called as an admin and as an anonymous caller with hostile input,
 * answers below 500, and every refusal carries the one error body. The routes come from the
 * authorisation matrix, so a new route is covered as soon as it has its row there.
 *
 * Both passes of `npm test` run this file, but the PostgreSQL pass keeps only what the dialect treats
 * differently (docs/decisions/057): the values that can reach a query (strings with NUL bytes, lone
 * surrogates, 100 KiB of text, LIKE wildcards; numbers beyond PostgreSQL's 32-bit integers; every
 * query and path value) and the same write sent three times at once (PostgreSQL's locks and unique
 * indexes race differently from SQLite's single writer). What is answered before any query, the same
 * whatever the database (a body that is not JSON, a content type, a value of the wrong type, a
 * field or parameter the schema does not know, an empty body over a socket), runs in the SQLite
 * pass only.
 */
const EVERY_VARIANT = TEST_DIALECT === 'sqlite';

/** A well-formed credential nobody made. */
const NO_CREDENTIAL = { id: 'none', rawId: 'none', type: 'public-key', response: { clientDataJSON: 'e30' } };

/**
 * The API's rows: the probes read each route's input from the API document. GET /metrics, outside
 * the API and its document, takes nothing but a header; its probes are its own (below).
 */
const API_ROWS = MATRIX.filter((row) => row.url.startsWith('/api/'));

/** Exactly `{ error: { code, message, details? } }`, nothing else (no Fastify default body, no stack). */
const StrictErrorBody = z
  .object({
    error: z
      .object({
        code: z.string().min(1),
        message: z.string().min(1),
        details: z
          .array(
            z
              .object({
                path: z.string(),
                message: z.string(),
                values: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
              })
              .strict(),
          )
          .optional(),
      })
      .strict(),
  })
  .strict();

const LONG = 'x'.repeat(100 * 1024);
const HOSTILE_STRINGS: Record<string, string> = {
  empty: '',
  blank: '   ',
  long: LONG,
  unicode: 'Zoë Ærøskøbing 😀 \u202eRTL\u202c 中文',
  loneSurrogate: 'a\ud800b',
  control: '\u0001\u0007\b\t\n\r\u001b[31m\u007f\u0085',
  nul: 'a\u0000b',
  onlyNul: '\u0000',
  sql: "' OR '1'='1'; DROP TABLE users; --",
  sqlWildcards: '%_\\%',
  html: '<script>alert(1)</script>',
  path: '../../etc/passwd',
  emailWithNul: 'a\u0000@example.com',
};
/** Numbers a schema may let through to a query: PostgreSQL refuses what its integer columns cannot hold. */
const NUMBERS: Record<string, unknown> = {
  zero: 0,
  negative: -1,
  float: 1.5,
  huge: 1e308,
  beyondSafeInteger: 1e20,
};
const WRONG_TYPES: Record<string, unknown> = {
  ...NUMBERS,
  boolean: true,
  emptyArray: [],
  array: ['a', 'b'],
  emptyObject: {},
  object: { nested: { deeper: 'x' } },
  null: null,
};
const RAW_JSON_BODIES: Record<string, string> = {
  truncated: '{',
  truncatedField: '{"email":',
  array: '[]',
  null: 'null',
  string: '"a string"',
  number: '123',
  boolean: 'true',
  empty: '',
  nul: '\u0000',
  protoPoisoning: '{"__proto__":{"isAdmin":true}}',
  constructorPoisoning: '{"constructor":{"prototype":{"isAdmin":true}}}',
  deeplyNestedArrays: `${'['.repeat(500_000)}${']'.repeat(500_000)}`,
  deeplyNestedObjects: `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`,
  duplicateKeys: '{"email":"a@example.com","email":"b@example.com"}',
};
const QUERY_VALUES: Record<string, string> = {
  negative: '-1',
  hugeLength: '1e9',
  text: 'abc',
  float: '1.5',
  nan: 'NaN',
  infinity: 'Infinity',
  overflow: '99999999999999999999',
  int4Overflow: '2147483648',
  hex: '0x10',
  exponent: '1e3',
  empty: '',
  blank: '%20',
  nul: '%00',
  long: LONG,
  unicode: encodeURIComponent(HOSTILE_STRINGS.unicode),
  control: encodeURIComponent(HOSTILE_STRINGS.control),
  sql: encodeURIComponent(HOSTILE_STRINGS.sql),
  badPercent: '%zz',
  loneSurrogate: '%ED%A0%80',
  invalidUtf8: '%FF%FE',
};
const PATH_VALUES: Record<string, string> = {
  overflow: '99999999999999999999',
  int4Overflow: '2147483648',
  maxSafe: '9007199254740991',
  text: 'abc',
  zero: '0',
  negative: '-1',
  float: '1.5',
  exponent: '1e3',
  hex: '0x10',
  blank: '%20',
  nul: '%00',
  sql: encodeURIComponent("1' OR '1'='1"),
  long: '9'.repeat(500),
  badPercent: '%zz',
  dotDot: '..',
};

interface Variant {
  name: string;
  options: InjectOptions;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function splitUrl(url: string): { path: string; query: URLSearchParams } {
  const [path, query = ''] = url.split('?');
  return { path, query: new URLSearchParams(query) };
}

function withQuery(path: string, pairs: [string, string][]): string {
  // Values here are already encoded (or deliberately malformed); they are joined as they are.
  return pairs.length ? `${path}?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}` : path;
}

interface Documented {
  bodyFields: string[];
  queryParams: string[];
}

async function variantsOf(
  row: MatrixRow,
  call: () => Promise<CallOptions>,
  documented: Documented,
): Promise<Variant[]> {
  const variants: Variant[] = [];
  const sample = await call();
  const url = sample.url ?? row.url;
  const { path, query } = splitUrl(url);
  const basePairs = [...query.entries()].map(([k, v]) => [k, encodeURIComponent(v)] as [string, string]);
  const json = { 'content-type': 'application/json' };

  if (BODY_METHODS.has(row.method) && EVERY_VARIANT) {
    for (const [name, body] of Object.entries(RAW_JSON_BODIES)) {
      variants.push({ name: `raw JSON body ${name}`, options: { url, headers: json, payload: body } });
    }
    const validText = JSON.stringify(sample.payload ?? {});
    for (const [name, type] of Object.entries({
      textPlain: 'text/plain',
      textPlainUtf8: 'text/plain; charset=utf-8',
      form: 'application/x-www-form-urlencoded',
      multipart: 'multipart/form-data; boundary=x',
      xml: 'application/xml',
      octets: 'application/octet-stream',
      jsonUtf16: 'application/json; charset=utf-16',
      jsonSuffix: 'application/vnd.api+json',
      garbage: ';;;==',
    })) {
      variants.push({
        name: `content-type ${name}`,
        options: { url, headers: { 'content-type': type }, payload: validText },
      });
    }
    variants.push({
      name: 'form-encoded fields',
      options: {
        url,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'email=a%40example.com&password=x',
      },
    });
    variants.push({
      name: 'invalid UTF-8 in JSON',
      options: {
        url,
        headers: json,
        payload: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
      },
    });
  }

  if (BODY_METHODS.has(row.method)) {
    const fields = new Set([
      ...Object.keys((sample.payload as Record<string, unknown> | undefined) ?? {}),
      ...documented.bodyFields,
    ]);
    for (const field of fields.size ? fields : ['email']) {
      const values = { ...(EVERY_VARIANT ? WRONG_TYPES : NUMBERS), ...HOSTILE_STRINGS };
      for (const [name, value] of Object.entries(values)) {
        variants.push({
          name: `field ${field} = ${name}`,
          // a fresh sample per call: fields that must be unique stay unique
          options: {
            url,
            lazyPayload: async () => ({ ...(((await call()).payload as object) ?? {}), [field]: value }),
          },
        } as Variant);
      }
    }
  }
  if (BODY_METHODS.has(row.method) && EVERY_VARIANT) {
    variants.push({
      name: 'unknown fields',
      options: {
        url,
        lazyPayload: async () => ({
          ...(((await call()).payload as object) ?? {}),
          isAdmin: true,
          type: 'admin',
          id: 1,
        }),
      },
    } as Variant);
    variants.push({ name: 'hostile field names', options: { url, payload: { [LONG]: 1, 'a\u0000b': 2, '': 3 } } });
  }

  const params = new Set([...query.keys(), ...documented.queryParams, 'pageOffset', 'pageLength', 'filter']);
  for (const param of params) {
    const others = basePairs.filter(([k]) => k !== param);
    for (const [name, value] of Object.entries(QUERY_VALUES)) {
      variants.push({
        name: `query ${param} = ${name}`,
        options: { url: withQuery(path, [...others, [param, value]]), lazyPayload: async () => (await call()).payload },
      } as Variant);
    }
    if (!EVERY_VARIANT) continue;
    variants.push({
      name: `query ${param} duplicated`,
      options: {
        url: withQuery(path, [...others, [param, '1'], [param, '2']]),
        lazyPayload: async () => (await call()).payload,
      },
    } as Variant);
    variants.push({
      name: `query ${param}[] as array`,
      options: {
        url: withQuery(path, [...others, [`${param}[]`, '1'], [`${param}[0]`, '2']]),
        lazyPayload: async () => (await call()).payload,
      },
    } as Variant);
  }
  if (EVERY_VARIANT) {
    variants.push({
      name: 'unknown query params',
      options: {
        url: withQuery(path, [...basePairs, ['unknown', 'x'], ['__proto__', 'x'], ['constructor', 'y'], ['%zz', '1']]),
        lazyPayload: async () => (await call()).payload,
      },
    } as Variant);
  }

  if (row.url.includes(':')) {
    // The sample URL's path with its parameter segment (the first that differs from the pattern) replaced.
    const pattern = row.url.split('/');
    const concrete = path.split('/');
    const index = pattern.findIndex((segment) => segment.startsWith(':'));
    // what follows the parameter in its segment stays (`:productKey.atom`), so the value reaches the route
    const suffix = /^:\w+(.*)$/.exec(pattern[index])![1];
    for (const [name, value] of Object.entries(PATH_VALUES)) {
      const segments = [...concrete];
      segments[index] = value + suffix;
      variants.push({
        name: `path param ${name}`,
        options: { url: withQuery(segments.join('/'), basePairs), lazyPayload: async () => (await call()).payload },
      } as Variant);
    }
  }
  return variants;
}

let t: TestApp;
let app: FastifyInstance;
let fixture: Fixture;
const artifactsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-robust-artifacts-'));
let adminId: number;
let adminCookie: string;
/** The OpenAPI document's operations by method and path shape (see operationKey). */
let operations: Map<string, OpenApiOperation>;

interface OpenApiOperation {
  operationId?: string;
  parameters?: { in: string; name: string }[];
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
}

/**
 * An operation's key whatever its path parameters are called: the document may name one otherwise
 * than its route (`/api/invitations/:key` and `/:id` share `/api/invitations/{invitation}` there,
 * server/openapi.ts renameParams). OpenAPI allows one template per shape, so the shape is enough.
 */
const operationKey = (method: string, path: string) =>
  `${method.toLowerCase()} ${path.replace(/\{[^}/]+\}|:\w+/g, '{}')}`;

/** Body fields and query parameters the route's schema declares, read from the OpenAPI document. */
function documentedInput(row: MatrixRow): Documented {
  const operation = operations.get(operationKey(row.method, row.url));
  // A route the document lacks would be probed without its fields: say so rather than probe less.
  if (!operation) throw new Error(`${row.method} ${row.url} has no operation in the OpenAPI document`);
  return {
    bodyFields: Object.keys(operation.requestBody?.content?.['application/json']?.schema?.properties ?? {}),
    queryParams: (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
  };
}

/**
 * A new session for the admin, after a probe ended or replaced theirs (a sign-out, a sign-in): made
 * by the sessions service as a sign-in makes it, not through the sign-in route, which the probes
 * themselves call (its password check costs an argon2 verification, and some routes end the session
 * at every one of their hundred variants).
 */
async function signInAdmin() {
  adminCookie = `${SESSION_COOKIE}=${await startSession(app.ctx, systemActor('robustness'), adminId)}`;
}

beforeAll(async () => {
  t = await createTestApp({
    ...oidcEnv(),
    ARTIFACTS_DIR: artifactsDir,
    RATE_LIMIT_LOGIN_PER_MINUTE: '0',
    RATE_LIMIT_PASSWORD_RESET_PER_MINUTE: '0',
    RATE_LIMIT_INVITATION_PER_MINUTE: '0',
    RATE_LIMIT_SIGNUP_PER_MINUTE: '0',
    // each sign-up that passes its schema waits for this floor: a hundred variants would take 30 s
    SIGNUP_ANSWER_FLOOR_MS: '0',
    METRICS_TOKEN: MATRIX_METRICS_TOKEN,
  });
  app = t.app;
  const { db } = app.ctx;
  const own = await createCustomer(db, { name: 'Robust Own' });
  const other = await createCustomer(db, { name: 'Robust Other' });
  const resetUser = await createUser(db, { type: 'client', fullName: 'Robust Reset' });
  const robustExecutive = await createUser(db, { type: 'accountExecutive', fullName: 'Robust Executive' });
  // One live token and one solved captcha for every variant: the first valid call succeeds, the
  // others meet the used-token and replay answers, at none of the cost of a fresh one per variant.
  const liveToken = await issuePasswordResetToken(db, resetUser.id);
  const liveCaptcha = await solvedCaptcha(app);
  const liveEmailChange = await issueEmailChangeToken(db, resetUser.id, 'robust-moved@example.com');
  const liveInvitation = await createInvitation(db, own.id);
  const liveSignup = await createSignup(db, t.config.sessionSecret);
  const licensedProduct = await createProduct(db, { name: 'Robust Product' });
  const tokenProduct = await createProduct(db, { name: 'Robust Token Product' });
  const ownLicence = await createLicence(db, own.id, licensedProduct.key);
  const downloadable = await createVersionWithFiles(app.ctx, licensedProduct.key, {
    files: { linux: { bytes: Buffer.from('robust artifact') } },
  });
  let counter = 0;
  fixture = {
    ownCustomerId: own.id,
    otherCustomerId: other.id,
    targetUserId: (await createUser(db, { type: 'supportEngineer', fullName: 'Robust Target' })).id,
    accountExecutiveUserId: async () => robustExecutive.id,
    loginUser: { email: (await createUser(db, { type: 'client' })).email, password: TEST_PASSWORD },
    actorPassword: TEST_PASSWORD,
    unique: () => `${Date.now().toString(36)}-${counter++}`,
    resetToken: async () => liveToken,
    captcha: async () => liveCaptcha,
    emailChangeToken: async () => liveEmailChange,
    invitationKey: async () => liveInvitation.key,
    signupKey: async () => liveSignup.key,
    membershipIds: {
      [own.id]: (await addMembership(db, resetUser.id, own.id, 'technicalContact')).id,
      [other.id]: (await addMembership(db, resetUser.id, other.id, 'technicalContact')).id,
    },
    member: async (customerId) => {
      const user = await createUser(db, { type: 'client', fullName: 'Robust Member' });
      return (await addMembership(db, user.id, customerId, 'technicalContact')).id;
    },
    invitation: async (customerId) => (await createInvitation(db, customerId, { sealWith: t.config.sessionSecret })).id,
    customizableProduct: async (customerId) => {
      const { key } = await createProduct(db, { customizationType: 'lke' });
      await createLicence(db, customerId, key);
      return key;
    },
    customization: async (customerId) => {
      const { key } = await createProduct(db, { customizationType: 'lke' });
      await createLicence(db, customerId, key);
      return (await createCustomization(db, customerId, key)).id;
    },
    // the robustness calls are made as an admin, who holds no membership
    setUpMembershipsOnly: async () => {},
    product: async () => (await createProduct(db)).key,
    licence: async (customerId) => (await createLicence(db, customerId, (await createProduct(db)).key)).id,
    licensedProductKey: licensedProduct.key,
    tokenProductKey: tokenProduct.key,
    productToken: (await createProductToken(db, tokenProduct.key)).token,
    productTokenId: async () => (await createProductToken(db, tokenProduct.key)).id,
    unpublishedVersion: async (platforms = []) => {
      const versionId = await createUnpublishedVersion(db, tokenProduct.key);
      for (const platform of platforms) await addArtifactRow(db, versionId, platform);
      return versionId;
    },
    downloadableVersionId: downloadable.id,
    ownDownloadSecret: (await findLicence(db, ownLicence.id))!.downloadSecret,
    webhook: async () => (await createWebhookEndpoint(db, t.config.sessionSecret)).id,
    // customer 0 only asks for a concrete URL: the own customer's instance does
    instance: (customerId, status) => createInstance(db, customerId || own.id, status),
    webhookDelivery: async () => {
      const { id: webhookId } = await createWebhookEndpoint(db, t.config.sessionSecret);
      return { webhookId, deliveryId: await createWebhookDelivery(db, webhookId) };
    },
    failedJob: failedJobOf(app.ctx, await failedDownloadRecords(app.ctx, 2)),
    selfService: async (customerId, known = false) =>
      makeSelfService(db, customerId, { providerCustomerId: known ? `cus_test_robust_${customerId}` : null }),
    testCheckout: (customerId) => testCheckoutSession(db, customerId),
    oidcInteraction: (_actor, step) => startInteraction(app, adminCookie, step),
    secondFactor: () => pendingSignIn(db, resetUser),
    passkey: async () => ({ name: 'Robust key', credential: NO_CREDENTIAL }),
    totpCode: async () => '000000',
    passkeyId: async () => 1,
    stripeEvent: async () => {
      // as an object, sent as JSON.stringify writes it: the bytes that were signed
      const event = stripeEvent('invoice.paid', { customer: 'cus_nobody' });
      return { payload: event, headers: signedEvent(event, await app.ctx.payments.webhookSecret()).headers };
    },
  };
  adminId = (await createUser(db, { type: 'admin', fullName: 'Robust Admin' })).id;
  await signInAdmin();
  const openApi: { paths: Record<string, Record<string, OpenApiOperation>> } = (
    await app.inject({ url: '/api/docs/json' })
  ).json();
  operations = new Map(
    Object.entries(openApi.paths).flatMap(([path, byMethod]) =>
      Object.entries(byMethod).map(([method, operation]) => [operationKey(method, path), operation] as const),
    ),
  );
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(artifactsDir, { recursive: true, force: true });
});

/** Whether `key` names a text in one language's texts. */
function hasText(texts: unknown, key: string): boolean {
  let node = texts;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, part)) return false;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string';
}

/**
 * A detail's message is a message key with a text in both languages, never a sentence. The problems
 * of a customization's configuration (JSON pointers under customConfig/) are the exception: they are
 * written in the caller's language by the configuration's schema (docs/decisions/033).
 */
const isTranslatable = (detail: { path: string; message: string }) =>
  detail.path.startsWith('customConfig/') || (hasText(en, detail.message) && hasText(fr, detail.message));

/**
 * A 5xx is a failure, with no exception: an optional integration that is not set up answers 409
 * with its own code (`crm_not_configured`...), as the caller's request cannot be served here.
 */
function problemOf(response: { statusCode: number; body: string }): string | null {
  if (response.statusCode < 400) return null;
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    return `status ${response.statusCode} with a body that is not JSON`;
  }
  const parsed = StrictErrorBody.safeParse(body);
  if (response.statusCode >= 500) return `status ${response.statusCode}`;
  if (!parsed.success) return `status ${response.statusCode} with another error body`;
  const untranslated = (parsed.data.error.details ?? []).find((detail) => !isTranslatable(detail));
  return untranslated ? `detail message "${untranslated.message.slice(0, 80)}" is no message key` : null;
}

describe('never a 500: hostile input on every API route', () => {
  it('finds the input of the routes in the OpenAPI document', () => {
    const me = MATRIX.find((row) => row.method === 'PATCH' && row.url === '/api/auth/me')!;
    expect(documentedInput(me).bodyFields).toEqual(expect.arrayContaining(['email', 'fullName', 'preferredLocale']));
    const users = MATRIX.find((row) => row.method === 'GET' && row.url === '/api/users')!;
    expect(documentedInput(users).queryParams).toEqual(expect.arrayContaining(['pageOffset', 'pageLength', 'filter']));
    // documented under another parameter name (/api/invitations/{invitation}), found all the same
    const cancel = MATRIX.find((row) => row.method === 'DELETE' && row.url === '/api/invitations/:id')!;
    expect(operations.get(operationKey(cancel.method, cancel.url))).toMatchObject({ operationId: 'cancelInvitation' });
    const byKey = MATRIX.find((row) => row.method === 'GET' && row.url === '/api/invitations/:key')!;
    expect(operations.get(operationKey(byKey.method, byKey.url))).toMatchObject({ operationId: 'getInvitationByKey' });
  });

  it('finds every route of the matrix in the OpenAPI document', () => {
    const missing = API_ROWS.filter((row) => !operations.has(operationKey(row.method, row.url)));
    expect(missing.map((row) => `${row.method} ${row.url}`)).toEqual([]);
  });

  for (const row of API_ROWS) {
    it(`${row.method} ${row.url}`, async () => {
      const problems: string[] = [];
      const call = async () => (await row.call?.(fixture, { customerId: fixture.ownCustomerId })) ?? {};
      for (const actor of ['admin', 'anonymous'] as const) {
        for (const variant of await variantsOf(row, call, documentedInput(row))) {
          const { lazyPayload, ...options } = variant.options as InjectOptions & {
            lazyPayload?: () => Promise<unknown>;
          };
          const payload = lazyPayload ? await lazyPayload() : options.payload;
          const response = await request(app, actor === 'admin' ? adminCookie : null, {
            ...options,
            method: row.method,
            remoteAddress: '198.51.100.1',
            ...(payload !== undefined ? { payload: payload as InjectOptions['payload'] } : {}),
          });
          const problem = problemOf(response);
          if (problem) problems.push(`${actor} · ${variant.name}: ${problem} ${response.body.slice(0, 300)}`);
          if (actor === 'admin' && response.headers['set-cookie']) await signInAdmin();
        }
      }
      expect(problems).toEqual([]);
    });
  }
});

/**
 * Over a real socket, as a client would send it: an empty body (`Content-Length: 0`, with or without
 * a Content-Type) gets its answer at once on every route that takes a body. The upload route takes
 * the request stream as its body; an inspection that walked it as parsed fields never answered.
 */
/** One request with exactly these headers and no body, given up after 5 s. */
function rawCall(
  url: string,
  method: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string; setsCookie: boolean }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, timeout: 5_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body, setsCookie: res.headers['set-cookie'] !== undefined }),
      );
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 5 s')));
    req.on('error', reject);
    req.end();
  });
}

// Answered before any query: defined in the SQLite pass only (rather than skipped in the other).
if (EVERY_VARIANT) describeEmptyBodies();
if (EVERY_VARIANT) describeMetricsCredentials();

/**
 * GET /metrics reads nothing but its Authorization header (and ignores any query): every hostile one
 * is a 401 in the one error body, sessions and query parameters open nothing, and only the exact
 * token gets the metrics.
 */
function describeMetricsCredentials() {
  describe('GET /metrics with hostile credentials', () => {
    const token = MATRIX_METRICS_TOKEN;
    const AUTHORIZATIONS: Record<string, string | undefined> = {
      none: undefined,
      empty: '',
      basic: `Basic ${Buffer.from(`metrics:${token}`).toString('base64')}`,
      bearerAlone: 'Bearer',
      bearerBlank: 'Bearer    ',
      long: `Bearer ${LONG}`,
      shorter: `Bearer ${token.slice(0, -1)}`,
      longer: `Bearer ${token}x`,
      otherCase: `Bearer ${token.toUpperCase()}`,
      twice: `Bearer ${token} ${token}`,
      latin1: 'Bearer \u00e9\u00e8\u00ff',
      sql: `Bearer ${HOSTILE_STRINGS.sql}`,
      productToken: 'Bearer pt_not-a-metrics-token',
    };
    const URLS = [
      '/metrics',
      '/metrics/',
      `/metrics?token=${token}`,
      '/metrics?__proto__[x]=1&%zz',
      `/metrics?${LONG}`,
    ];

    it('refuses each with 401 in the one error body, as admin and signed out', async () => {
      const problems: string[] = [];
      for (const [name, authorization] of Object.entries(AUTHORIZATIONS)) {
        for (const url of URLS) {
          for (const cookie of [adminCookie, null]) {
            const response = await request(app, cookie, {
              method: 'GET',
              url,
              headers: authorization === undefined ? {} : { authorization },
            });
            const problem = problemOf(response);
            const who = `${cookie ? 'admin' : 'anonymous'} · ${name} · ${url.slice(0, 40)}`;
            if (problem) problems.push(`${who}: ${problem}`);
            else if (response.statusCode !== 401) problems.push(`${who}: ${response.statusCode}, not 401`);
          }
        }
      }
      expect(problems).toEqual([]);
    });

    it('answers the exact token with the metrics, whatever the query', async () => {
      for (const url of URLS) {
        for (const authorization of [`Bearer ${token}`, `bearer  ${token} `]) {
          const response = await request(app, null, { method: 'GET', url, headers: { authorization } });
          expect(response.statusCode, `${authorization} ${url.slice(0, 40)}`).toBe(200);
          expect(response.body).toContain('# TYPE portal_http_request_duration_seconds histogram');
        }
      }
    });
  });
}

function describeEmptyBodies() {
  describe('an empty or absent body is answered at once', () => {
    let base: string;
    beforeAll(async () => {
      base = await app.listen({ host: '127.0.0.1', port: 0 });
    });

    const EMPTY_BODIES: Record<string, Record<string, string>> = {
      'no content type': { 'content-length': '0' },
      'octets, length 0': { 'content-type': 'application/octet-stream', 'content-length': '0' },
      'JSON, length 0': { 'content-type': 'application/json', 'content-length': '0' },
    };

    for (const row of API_ROWS.filter((r) => BODY_METHODS.has(r.method))) {
      it(`${row.method} ${row.url}`, async () => {
        const problems: string[] = [];
        for (const [name, headers] of Object.entries(EMPTY_BODIES)) {
          const sample = (await row.call?.(fixture, { customerId: fixture.ownCustomerId })) ?? {};
          const credentials: Record<string, string> = row.productToken
            ? { authorization: `Bearer ${fixture.productToken}` }
            : { cookie: adminCookie };
          const url = sample.url ?? row.url;
          const response = await rawCall(`${base}${url}`, row.method, { ...credentials, ...headers }).catch(
            (error: Error) => error,
          );
          if (response instanceof Error) {
            problems.push(`${name}: no answer (${response.message})`);
            continue;
          }
          const problem = problemOf({ statusCode: response.status, body: response.body });
          if (problem) problems.push(`${name}: ${problem} ${response.body.slice(0, 200)}`);
          if (response.setsCookie) await signInAdmin();
          if (row.productToken && response.status !== 400) problems.push(`${name}: ${response.status}, not 400`);
        }
        expect(problems).toEqual([]);
      });
    }
  });
}

/**
 * Two or three people making the same write at once (a double click, two tabs, two colleagues): each
 * answer is a success or a refusal in the one error body, never a 500 (a deadlock, a unique index
 * raced past its check).
 */
describe('the same write sent three times at once', () => {
  for (const row of API_ROWS.filter((r) => BODY_METHODS.has(r.method) && r.call)) {
    it(`${row.method} ${row.url}`, async () => {
      const sample = await row.call!(fixture, { customerId: fixture.ownCustomerId });
      const credentials = row.productToken ? { authorization: `Bearer ${fixture.productToken}` } : {};
      const answers = await Promise.all(
        [0, 1, 2].map(() =>
          request(app, row.productToken ? null : adminCookie, {
            method: row.method,
            url: sample.url ?? row.url,
            remoteAddress: '198.51.100.2',
            headers: { ...sample.headers, ...credentials },
            ...(sample.payload !== undefined ? { payload: sample.payload as InjectOptions['payload'] } : {}),
          }),
        ),
      );
      const problems = answers.map(problemOf).filter((problem) => problem !== null);
      if (answers.some((answer) => answer.headers['set-cookie'])) await signInAdmin();
      expect(problems).toEqual([]);
    });
  }
});
