import fastifyCookie from '@fastify/cookie';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
import { createContext } from './compose';
import { openApiOptions } from './openapi';
import { responseSerializerCompiler } from './serializer';
import { validatorCompiler } from './validation';
import { type DatabaseHandle, migrateToLatest, openDatabase } from './db';
import { authRoutes } from './modules/auth/routes';
import { devMailboxRoutes } from './modules/dev/routes';
import { ssoRoutes } from './modules/sso/routes';
import { systemRoutes } from './modules/system/routes';
import { metricsRoutes } from './modules/system/metrics-routes';
import { customerRoutes } from './modules/customers/routes';
import { invitationAcceptanceRoutes } from './modules/invitations/accept-routes';
import { signupRoutes } from './modules/signup/routes';
import { auditRoutes } from './modules/audit/routes';
import { notificationSettingsRoutes } from './modules/notification-settings/routes';
import { notificationRoutes } from './modules/notifications/routes';
import { userRoutes } from './modules/users/routes';
import { searchRoutes } from './modules/search/routes';
import { twoFactorRoutes } from './modules/two-factor/routes';
import { twoFactorEnrolment } from './modules/two-factor/enrolment';
import { memberRoutes } from './modules/members/routes';
import { invitationRoutes } from './modules/invitations/routes';
import { customizationRoutes } from './modules/customizations/routes';
import { licenceRoutes } from './modules/licences/routes';
import { analyticsRoutes } from './modules/analytics/routes';
import { licenceFileRoutes } from './modules/licence-files/routes';
import { legalRoutes } from './modules/legal/routes';
import { artifactRoutes } from './modules/artifacts/routes';
import { catalogueRoutes } from './modules/catalogue/routes';
import { downloadRoutes } from './modules/downloads/routes';
import { webhookRoutes } from './modules/webhooks/routes';
import { billingRoutes } from './modules/billing/routes';
import { instanceRoutes } from './modules/instances/routes';
import { backgroundWorkRoutes } from './modules/background-work/routes';
import { ensureSigningKey } from './modules/licence-files/service';
import { resealUnderCurrentSecret } from './security/reseal';
import { sealPlainOutboxBodies } from './mail/body';
import { SEALED_COLUMNS } from './sealed-columns';
import { oidcRoutes } from './modules/oidc/routes';
import { ensureOidcSigningKey } from './modules/oidc/signing-keys';
import { accessRules } from './plugins/access';
import { bodies } from './plugins/bodies';
import { RequestLog, serializeRequest } from './log';
import { clientErrorHandler, errors, frameworkErrorHandler } from './plugins/errors';
import { apiCompression } from './plugins/compression';
import { idempotency } from './plugins/idempotency';
import { input } from './plugins/input';
import { requestMetrics } from './plugins/metrics';
import { rateLimit } from './plugins/rate-limit';
import { security } from './plugins/security';
import { session } from './plugins/session';
import { spa } from './plugins/spa';
import { nodeServerTimeouts, timeouts } from './plugins/timeouts';

const BODY_LIMIT_BYTES = 1024 * 1024;

export interface BuildOptions {
  /** an already open database (tests share one per file); otherwise config.databaseUrl is opened */
  database?: DatabaseHandle;
  /** false in tests that drive jobs (the outbox, purges) by hand */
  startBackgroundWork?: boolean;
  /** told of every route as it is added (the authorisation matrix test lists them this way) */
  onRoute?: (route: RouteOptions) => void;
  /** where log lines go; standard output otherwise (tests read them to check what is logged) */
  logStream?: { write(line: string): void };
  /**
   * Routes added under /api next to the portal's own, for tests of a mechanism no production route
   * uses yet (webhooks, form posts). They must declare an access rule like any other.
   */
  testRoutes?: (api: FastifyInstance) => Promise<void>;
}

/**
 * TRUST_PROXY as Fastify takes it. Fastify fails closed on a bare hop count (it cannot tell the
 * proxy from a client that connects directly), which left every client behind the proxy keyed on the
 * proxy's address: one shared rate limit and captcha count for all. The count is therefore given as
 * a trust function, which Fastify applies as is; an address list stays the stricter choice.
 */
function fastifyTrustProxy(
  value: Config['trustProxy'],
): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof value === 'number') return value > 0 ? (_address, hop) => hop < value : false;
  return value;
}

/** Builds the whole portal without listening: main.ts listens, tests use app.inject(). */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const database = options.database ?? openDatabase(config.databaseUrl);
  const ownsDatabase = !options.database;
  await migrateToLatest(database);

  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            ...(options.logStream ? { stream: options.logStream } : {}),
            // URLs lose their secrets (reset tokens, invitation keys); headers are not logged at all,
            // the redaction is there should a serializer ever add them.
            serializers: { req: serializeRequest },
            redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
          },
    // one line per response (server/log.ts RequestLog, decision 090)
    ...(config.logLevel === 'silent' ? {} : { logController: new RequestLog() }),
    trustProxy: fastifyTrustProxy(config.trustProxy),
    bodyLimit: BODY_LIMIT_BYTES,
    // /api/users/ and /api/users are the same route
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors: frameworkErrorHandler(config),
    clientErrorHandler: clientErrorHandler(config),
    // Node would answer a request without Host itself, with a bare 400; plugins/security.ts does.
    http: { ...nodeServerTimeouts(config), requireHostHeader: false },
    requestTimeout: 0, // Fastify would set it on the server after `http`; bodies are timed per route
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler({ check: config.checkResponses }));

  database.onConnectionError((error) =>
    app.log.warn({ reason: error.message }, 'database connection lost; a new one is opened when needed'),
  );
  const ctx = createContext({ config, database, log: app.log });
  app.decorate('ctx', ctx);
  // after a SESSION_SECRET rotation, what only a previous secret opens is sealed under the new one
  const { resealed, unreadable } = await resealUnderCurrentSecret(ctx.db, config.sealSecrets, SEALED_COLUMNS);
  if (resealed > 0) app.log.info({ resealed }, 'sealed values resealed under the current SESSION_SECRET');
  if (unreadable > 0) app.log.warn({ unreadable }, 'sealed values that open under none of the secrets');
  // mails queued before migration 031 kept their bodies in the clear
  const sealedMails = await sealPlainOutboxBodies(ctx.db, config.sessionSecret);
  if (sealedMails > 0) app.log.info({ sealedMails }, 'queued mails sealed in the outbox');
  // the key that signs licence files: generated on the first start unless one is configured
  await ensureSigningKey(ctx);
  // and the one that signs the OpenID Connect provider's tokens (modules/oidc)
  await ensureOidcSigningKey(ctx);

  // Every API route must say who may call it (see plugins/access.ts).
  app.addHook('onRoute', (route) => {
    options.onRoute?.(route);
    const declares =
      route.url.startsWith('/oidc/') || (route.url.startsWith('/api/') && !route.url.startsWith('/api/docs'));
    if (!declares) return;
    if (!route.config?.access) throw new Error(`Route ${String(route.method)} ${route.url} declares no access rule`);
  });

  await app.register(requestMetrics);
  await app.register(errors);
  await app.register(fastifyCookie);
  await app.register(bodies);
  await app.register(timeouts);
  await app.register(security);
  await app.register(input);
  await app.register(session);
  await app.register(rateLimit);
  await app.register(fastifySwagger, openApiOptions(config));
  await app.register(fastifySwaggerUi, {
    routePrefix: '/api/docs',
    // The reference page sets a policy of its own (its scripts are files; an inline one would need
    // its hash). Like every other page it may not be framed, and development serves it over plain
    // HTTP, where upgrading its requests would break it.
    staticCSP: true,
    transformStaticCSP: (header) =>
      header.replace("frame-ancestors 'self'", "frame-ancestors 'none'").replace(/\s*upgrade-insecure-requests;?/, ''),
  });

  // Right after the session is read, before the body is parsed or validated (see plugins/access.ts).
  await app.register(accessRules);
  await app.register(twoFactorEnrolment);
  // After the access rule and the body's validation, before the handler: creating routes' Idempotency-Key.
  await app.register(idempotency);

  await app.register(
    async (api) => {
      await apiCompression(api);
      await api.register(systemRoutes);
      await api.register(authRoutes);
      await api.register(userRoutes);
      await api.register(twoFactorRoutes);
      await api.register(customerRoutes);
      await api.register(invitationAcceptanceRoutes);
      // SELF_SERVICE_SIGNUP off: the sign-up's routes do not exist (404), as for any unknown path
      if (config.selfServiceSignup) await api.register(signupRoutes);
      await api.register(auditRoutes);
      await api.register(notificationSettingsRoutes);
      await api.register(notificationRoutes);
      await api.register(memberRoutes);
      await api.register(instanceRoutes);
      await api.register(invitationRoutes);
      await api.register(customizationRoutes);
      await api.register(licenceRoutes);
      await api.register(catalogueRoutes);
      await api.register(ssoRoutes);
      await api.register(licenceFileRoutes);
      await api.register(analyticsRoutes);
      await api.register(backgroundWorkRoutes);
      await api.register(legalRoutes);
      await api.register(webhookRoutes);
      await api.register(billingRoutes);
      await api.register(artifactRoutes);
      await api.register(downloadRoutes);
      await api.register(searchRoutes);
      if (options.testRoutes) await api.register(options.testRoutes);
    },
    { prefix: '/api' },
  );
  // the OpenID Connect provider and its interactions, a prefix with its own rules (docs/oidc.md)
  await app.register(oidcRoutes);
  // outside /api, for a Prometheus server (decision 064)
  await app.register(metricsRoutes);
  if (config.devMailbox) await app.register(devMailboxRoutes);
  await app.register(spa);

  // the jobs' storage, before any request may queue work
  await ctx.jobs.prepare();
  // The event loop monitor, and the METRICS_BIND listener when configured: started and stopped with the app.
  app.addHook('onReady', () => ctx.metrics.start());
  if (options.startBackgroundWork !== false) {
    app.addHook('onReady', async () => {
      await ctx.jobs.start();
    });
  }
  app.addHook('onClose', async () => {
    await ctx.metrics.stop();
    // Jobs still running need the mailer and the database.
    await ctx.jobs.stop();
    await ctx.mail.close();
    if (ownsDatabase) await database.close();
  });

  return app as unknown as FastifyInstance;
}
