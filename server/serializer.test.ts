import Fastify from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errors } from './plugins/errors';
import { responseSerializerCompiler, serializers } from './serializer';
import { createTestApp, type TestApp } from './test/harness';

describe('the portal compiles every response schema', () => {
  let t: TestApp;
  beforeAll(async () => {
    serializers.compiled.length = 0;
    serializers.gaps.length = 0;
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('leaves no route to the slower path', () => {
    expect(serializers.compiled).toContain('GET /api/auth/me 200');
    expect(serializers.compiled.length).toBeGreaterThan(60);
    expect(serializers.gaps).toEqual([]);
  });
});

const Thing = z.object({
  id: z.number().int(),
  name: z.string(),
  note: z.string().nullable(),
  tags: z.array(z.enum(['a', 'b'])),
});

async function appWith(check: boolean, answer: () => unknown) {
  const app = Fastify().withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler({ check }));
  await app.register(errors, { config: { env: 'test' } } as never);
  app.get('/thing', { schema: { response: { 200: Thing } } }, async () => answer() as z.infer<typeof Thing>);
  await app.ready();
  return app;
}

describe('responseSerializerCompiler', () => {
  it('writes the declared fields only, whether answers are checked or not', async () => {
    for (const check of [true, false]) {
      const app = await appWith(check, () => ({ id: 1, name: 'x', note: null, tags: ['a'], secret: 's3cr3t' }));
      const response = await app.inject({ url: '/thing' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ id: 1, name: 'x', note: null, tags: ['a'] });
      expect(response.body).not.toContain('s3cr3t');
      await app.close();
    }
  });

  it('refuses an answer that does not match its schema when checking (never in production)', async () => {
    const wrong = () => ({ id: 1, name: 'x', note: null, tags: ['c'] });
    const checked = await appWith(true, wrong);
    expect((await checked.inject({ url: '/thing' })).statusCode).toBe(500);
    await checked.close();
  });
});
