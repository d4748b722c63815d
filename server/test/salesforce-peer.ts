import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP peer that speaks Salesforce's REST wire protocol for the calls the CRM sync makes
 * (server/integrations/crm/salesforce.ts): the OAuth token endpoint (client credentials or
 * username-password, form-encoded, `{ access_token, instance_url, id, ... }` or `{ error,
 * error_description }`), the sObject upsert by external id (`PATCH /services/data/vXX.X/sobjects/
 * {type}/{field}/{value}`: 201 with `{ id, success, errors, created }` when created, 204 when updated)
 * and the read by external id, with Salesforce's JSON error shape (`[{ message, errorCode, fields }]`).
 * The objects and fields it knows are those of docs/crm.md; any other field is refused as Salesforce
 * refuses it. Tests read `records` and `requests`, and make it refuse with `failNext`.
 */

const PEER_CLIENT_ID = '3MVG9peer.client.id';
const PEER_CLIENT_SECRET = 'peer-client-secret-0123456789';

const FIELDS: Record<string, { externalId: string; fields: string[]; references: Record<string, string> }> = {
  Account: {
    externalId: 'Portal_Customer_Id__c',
    fields: ['Name', 'Portal_Customer_Key__c', 'Portal_Self_Service__c'],
    references: {},
  },
  Contact: {
    externalId: 'Portal_Membership_Id__c',
    fields: ['AccountId', 'FirstName', 'LastName', 'Email', 'Portal_Role__c', 'Portal_Status__c'],
    references: { AccountId: 'Account' },
  },
  Portal_Licence__c: {
    externalId: 'Portal_Licence_Id__c',
    fields: [
      'Name',
      'Account__c',
      'Product_Key__c',
      'Product_Name__c',
      'Access_Level__c',
      'Start_Date__c',
      'End_Date__c',
      'Entity_Resolution__c',
    ],
    references: { Account__c: 'Account' },
  },
};
const PREFIXES: Record<string, string> = { Account: '001', Contact: '003', Portal_Licence__c: 'a00' };

type SfRecord = Record<string, unknown> & { Id: string };
interface Failure {
  status: number;
  body: unknown;
}

interface PeerCall {
  method: string;
  path: string;
  status: number;
}

export class SalesforcePeer {
  private server: http.Server | null = null;
  private readonly tokens = new Set<string>();
  private readonly failures: Failure[] = [];
  /** stored records by sObject type, then by external id value */
  readonly records = new Map<string, Map<string, SfRecord>>();
  readonly requests: PeerCall[] = [];
  /** how many upserts changed a stored record (created it, or wrote a different value) */
  writes = 0;

  get origin(): string {
    const { port } = this.server!.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** The environment that points a portal at this peer (client credentials flow). */
  env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      SALESFORCE_LOGIN_URL: this.origin,
      SALESFORCE_CLIENT_ID: PEER_CLIENT_ID,
      SALESFORCE_CLIENT_SECRET: PEER_CLIENT_SECRET,
      ...extra,
    };
  }

  /** The next REST call (not the token) is answered with this status and Salesforce error body. */
  failNext(status: number, body: unknown): void {
    this.failures.push({ status, body });
  }

  async listen(): Promise<void> {
    this.server = http.createServer((request, response) => {
      void this.handle(request, response).catch((error: Error) => {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(JSON.stringify([{ message: error.message, errorCode: 'UNKNOWN_EXCEPTION' }]));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(request: http.IncomingMessage, response: http.ServerResponse) {
    const url = new URL(request.url ?? '/', this.origin);
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const answer = (status: number, json?: unknown) => {
      this.requests.push({ method: request.method ?? '', path: url.pathname, status });
      if (json === undefined) response.writeHead(status).end();
      else response.writeHead(status, { 'content-type': 'application/json;charset=UTF-8' }).end(JSON.stringify(json));
    };

    if (request.method === 'POST' && url.pathname === '/services/oauth2/token') {
      const form = new URLSearchParams(body);
      const grant = form.get('grant_type');
      if (form.get('client_id') !== PEER_CLIENT_ID || form.get('client_secret') !== PEER_CLIENT_SECRET) {
        return answer(400, { error: 'invalid_client', error_description: 'invalid client credentials' });
      }
      if (grant === 'password' && !(form.get('username') && form.get('password'))) {
        return answer(400, { error: 'invalid_grant', error_description: 'authentication failure' });
      }
      if (grant !== 'client_credentials' && grant !== 'password') {
        return answer(400, { error: 'unsupported_grant_type', error_description: 'grant type not supported' });
      }
      const token = `00D000000000001!${crypto.randomBytes(16).toString('hex')}`;
      this.tokens.add(token);
      return answer(200, {
        access_token: token,
        instance_url: this.origin,
        id: `${this.origin}/id/00D000000000001AAA/005000000000001AAA`,
        token_type: 'Bearer',
        issued_at: String(Date.now()),
        signature: crypto.randomBytes(32).toString('base64'),
      });
    }

    const match = /^\/services\/data\/v\d+\.\d\/sobjects\/([A-Za-z_]+)\/([A-Za-z_]+)\/([^/]+)$/.exec(url.pathname);
    if (!match) return answer(404, [{ errorCode: 'NOT_FOUND', message: 'The requested resource does not exist' }]);
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (!bearer || !this.tokens.has(bearer)) {
      return answer(401, [{ message: 'Session expired or invalid', errorCode: 'INVALID_SESSION_ID' }]);
    }
    const failure = this.failures.shift();
    if (failure) return answer(failure.status, failure.body);
    const [, type, field, rawValue] = match;
    const value = decodeURIComponent(rawValue);
    const shape = FIELDS[type];
    if (!shape) {
      return answer(404, [{ errorCode: 'NOT_FOUND', message: `The requested resource does not exist` }]);
    }
    if (field !== shape.externalId) {
      return answer(404, [
        {
          errorCode: 'NOT_FOUND',
          message: `Provided external ID field does not exist or is not accessible: ${field}`,
        },
      ]);
    }
    const stored = (this.records.get(type) ?? this.records.set(type, new Map()).get(type)!).get(value);
    if (request.method === 'GET') {
      if (!stored) return answer(404, [{ errorCode: 'NOT_FOUND', message: 'The requested resource does not exist' }]);
      return answer(200, {
        attributes: { type, url: `/services/data/v62.0/sobjects/${type}/${stored.Id}` },
        ...stored,
      });
    }
    if (request.method !== 'PATCH') {
      return answer(405, [{ errorCode: 'METHOD_NOT_ALLOWED', message: `HTTP Method '${request.method}' not allowed` }]);
    }
    return this.upsert(type, shape, value, stored, body, answer);
  }

  private upsert(
    type: string,
    shape: (typeof FIELDS)[string],
    value: string,
    stored: SfRecord | undefined,
    body: string,
    answer: (status: number, json?: unknown) => void,
  ) {
    let fields: Record<string, unknown>;
    try {
      fields = JSON.parse(body) as Record<string, unknown>;
    } catch {
      return answer(400, [{ errorCode: 'JSON_PARSER_ERROR', message: 'Unexpected character' }]);
    }
    for (const name of Object.keys(fields)) {
      if (name === shape.externalId) {
        return answer(400, [{ errorCode: 'INVALID_FIELD', message: `${name} is the external id; give it in the URL` }]);
      }
      if (!shape.fields.includes(name)) {
        return answer(400, [
          { message: `No such column '${name}' on sobject of type ${type}`, errorCode: 'INVALID_FIELD', fields: [] },
        ]);
      }
    }
    for (const [name, target] of Object.entries(shape.references)) {
      const id = fields[name];
      const known = [...(this.records.get(target)?.values() ?? [])].some((record) => record.Id === id);
      if (id !== undefined && !known) {
        return answer(400, [
          {
            message: `${name}: id value of incorrect type: ${JSON.stringify(id)}`,
            errorCode: 'MALFORMED_ID',
            fields: [name],
          },
        ]);
      }
    }
    if (type === 'Contact' && !fields.LastName && !stored?.LastName) {
      return answer(400, [
        {
          message: 'Required fields are missing: [LastName]',
          errorCode: 'REQUIRED_FIELD_MISSING',
          fields: ['LastName'],
        },
      ]);
    }
    if (stored) {
      const changed = Object.entries(fields).some(([name, v]) => stored[name] !== v);
      if (changed) this.writes++;
      Object.assign(stored, fields);
      return answer(204);
    }
    const id = `${PREFIXES[type]}${crypto.randomBytes(6).toString('hex').toUpperCase()}AAA`.slice(0, 18);
    this.records.get(type)!.set(value, { Id: id, [shape.externalId]: value, ...fields });
    this.writes++;
    return answer(201, { id, success: true, errors: [], created: true });
  }
}
