import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { access } from './plugins/access';
import { API_TAGS, describeAccess, transformRoute } from './openapi';
import { createTestApp, type TestApp } from './test/harness';

/**
 * The OpenAPI document integrators' tools read (docs/api.md, decision 058). Spectral lints it in
 * `npm test` (scripts/api-document.ts); these tests hold what its rules do not see.
 */
interface Operation {
  operationId?: string;
  tags?: string[];
  summary?: string;
  description?: string;
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ name: string; in: string; description?: string }>;
  requestBody?: { content: Record<string, unknown> };
  responses: Record<
    string,
    { description: string; headers?: Record<string, unknown>; content?: Record<string, unknown> }
  >;
}

let t: TestApp;
let document: { tags: { name: string; description: string }[]; paths: Record<string, Record<string, Operation>> };
let operations: { method: string; path: string; operation: Operation }[];

beforeAll(async () => {
  t = await createTestApp();
  document = (await t.app.inject({ url: '/api/docs/json' })).json();
  operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ method, path, operation })),
  );
});
afterAll(async () => {
  await t?.close();
});

const name = ({ method, path }: { method: string; path: string }) => `${method.toUpperCase()} ${path}`;

describe('the OpenAPI document', () => {
  it('describes the API routes only', () => {
    expect(operations.length).toBeGreaterThanOrEqual(69);
    expect(operations.filter(({ path }) => !path.startsWith('/api/')).map(name)).toEqual([]);
    expect(operations.filter(({ path }) => path.startsWith('/api/docs')).map(name)).toEqual([]);
  });

  it('gives every operation a stable camelCase operationId, each used once', () => {
    const missing = operations.filter(({ operation }) => !operation.operationId).map(name);
    expect(missing, 'operations without an operationId').toEqual([]);
    const notCamel = operations.filter(({ operation }) => !/^[a-z][a-zA-Z0-9]*$/.test(operation.operationId!));
    expect(notCamel.map(name)).toEqual([]);
    const seen = new Map<string, string>();
    const duplicated: string[] = [];
    for (const entry of operations) {
      const id = entry.operation.operationId!;
      if (seen.has(id)) duplicated.push(`${id}: ${seen.get(id)} and ${name(entry)}`);
      seen.set(id, name(entry));
    }
    expect(duplicated).toEqual([]);
    // the names clients are generated with: changing one breaks integrators' code
    expect(seen.get('uploadArtifact')).toBe('PUT /api/versions/{id}/artifacts/{platform}');
    expect(seen.get('downloadArtifact')).toBe('GET /api/download/{platform}');
    expect(seen.get('downloadArtifactBySecret')).toBe('GET /api/get/{platform}/{productKey}/{semVer}');
  });

  it('declares every tag it uses, with a description, and no other', () => {
    const declared = document.tags.map((tag) => tag.name);
    expect(document.tags.filter((tag) => !tag.description).map((tag) => tag.name)).toEqual([]);
    const used = new Set(operations.flatMap(({ operation }) => operation.tags ?? []));
    expect(operations.filter(({ operation }) => operation.tags?.length !== 1).map(name)).toEqual([]);
    expect([...used].filter((tag) => !declared.includes(tag))).toEqual([]);
    expect(declared.filter((tag) => !used.has(tag))).toEqual([]);
  });

  it('gives every operation a summary and a description that says who may call it', () => {
    const lacking = operations.filter(({ operation }) => !operation.summary || !operation.description);
    expect(lacking.map(name)).toEqual([]);
    expect(operations.filter(({ operation }) => !/(^|\n\n)Access: /.test(operation.description!)).map(name)).toEqual(
      [],
    );
    const users = document.paths['/api/users'].get;
    expect(users.description).toBe(
      'Access: signed-in users whose type holds `manageUsers` (`admin`); 401 without a session, 403 otherwise.',
    );
    expect(users.security).toEqual([{ session: [] }]);
    expect(document.paths['/api/auth/login'].post.security).toEqual([]);
    const upload = document.paths['/api/versions/{id}/artifacts/{platform}'].put;
    expect(upload.security).toEqual([{ session: [] }, { productToken: [] }]);
    expect(upload.description).toMatch(/The body is the file[\s\S]*\n\nAccess: [^\n]*Bearer/);
    expect(Object.keys(upload.requestBody!.content)).toEqual(['application/octet-stream']);
  });

  it('names one template for the invitation by key and by id, each parameter saying which it is', () => {
    const templates = Object.keys(document.paths).map((path) => path.replace(/\{[^}]+\}/g, '{}'));
    expect(templates.filter((template, index) => templates.indexOf(template) !== index)).toEqual([]);
    expect(document.paths['/api/invitations/{key}']).toBeUndefined();
    expect(document.paths['/api/invitations/{id}']).toBeUndefined();
    const { get, delete: cancel } = document.paths['/api/invitations/{invitation}'];
    expect(get.operationId).toBe('getInvitationByKey');
    expect(cancel.operationId).toBe('cancelInvitation');
    expect(get.parameters).toEqual([
      expect.objectContaining({ name: 'invitation', in: 'path', description: expect.stringMatching(/key/) }),
    ]);
    expect(cancel.parameters).toEqual([
      expect.objectContaining({ name: 'invitation', in: 'path', description: expect.stringMatching(/id/) }),
    ]);
    // the other invitation routes keep the spec's names
    expect(document.paths['/api/invitations/{key}/new']).toBeDefined();
    expect(document.paths['/api/invitations/{id}/resend']).toBeDefined();
  });

  it('declares a success or redirect answer for every operation, with Location on redirects', () => {
    const without = operations.filter(
      ({ operation }) => !Object.keys(operation.responses).some((s) => /^[23]/.test(s)),
    );
    expect(without.map(name)).toEqual([]);
    const redirect = document.paths['/api/jwt/redirect'].get.responses['302'];
    expect(redirect.headers).toHaveProperty('Location');
    expect(redirect.content).toBeUndefined();
    const bySecret = document.paths['/api/get/{platform}/{productKey}/{semVer}'].get.responses;
    expect(Object.keys(bySecret)).toEqual(expect.arrayContaining(['200', '206', '302', '304']));
    expect(bySecret['200'].content).toEqual({
      'application/octet-stream': { schema: { type: 'string', format: 'binary' } },
    });
    // the signed-in download answers its check as JSON and the file as bytes
    expect(Object.keys(document.paths['/api/download/{platform}'].get.responses['200'].content!)).toEqual([
      'application/json',
      'application/octet-stream',
    ]);
    expect(document.paths['/api/users/{id}'].get.responses['404'].description).toBe('Not Found');
  });

  it('lists the declared tags in one place', () => {
    expect(document.tags).toEqual(API_TAGS);
  });
});

describe('transformRoute', () => {
  it('hides what is not under /api, and renames a parameter in the path and its schema', () => {
    expect(transformRoute({ schema: {}, url: '/dev/mailbox', route: {} } as never).schema).toEqual({ hide: true });
    const renamed = transformRoute({
      schema: { params: z.object({ id: z.string(), part: z.string() }) },
      url: '/api/things/:id/parts/:part',
      route: {
        config: {
          access: access.public,
          document: { renameParams: { id: { as: 'thing', description: 'The thing' } } },
        },
      },
      openapiObject: { openapi: '3.0.3' },
    } as never);
    expect(renamed.url).toBe('/api/things/:thing/parts/:part');
    expect(renamed.schema.params).toMatchObject({
      properties: { thing: { type: 'string', description: 'The thing' }, part: { type: 'string' } },
      required: ['thing', 'part'],
    });
    expect((renamed.schema.params as { properties: object }).properties).not.toHaveProperty('id');
  });

  it("describes an invitation's key and link as optional fields for admins, in every answer that lists invitations", () => {
    type Schema = { properties: Record<string, { type?: string; description?: string }>; required: string[] };
    const listed = (path: string, method: string, status: string, pick: (schema: never) => Schema) =>
      pick((document.paths[path][method].responses[status].content!['application/json'] as { schema: never }).schema);
    const invitationSchemas = [
      listed(
        '/api/invitations',
        'get',
        '200',
        (s: { properties: { data: { items: Schema } } }) => s.properties.data.items,
      ),
      listed('/api/invitations', 'post', '201', (s: Schema) => s),
      listed('/api/invitations/{id}/resend', 'post', '200', (s: Schema) => s),
    ];
    for (const schema of invitationSchemas) {
      for (const field of ['key', 'invitationLink']) {
        expect(schema.properties[field]).toMatchObject({
          type: 'string',
          description: expect.stringMatching(/only to admins/),
        });
        expect(schema.required).not.toContain(field);
      }
    }
  });

  it('describes a customer rule with an optional customer', () => {
    expect(describeAccess(access.customerIfGiven('viewTeam', 'query.customerId'))).toMatch(
      /^Access: with `customerId`, signed-in users whose role in the customer holds `viewTeam` \(.*\)[^\n]* Without it, any signed-in user/,
    );
  });
});
