/** The part of oidc-provider 9 (shipped untyped) the portal uses (docs/oidc.md). */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface AdapterPayload {
    [key: string]: unknown;
    grantId?: string;
    userCode?: string;
    uid?: string;
    consumed?: number;
  }

  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  /** Koa's context, as the provider hands it to the configuration's functions. */
  export interface KoaContextWithOIDC {
    req: IncomingMessage;
    res: ServerResponse;
    body: unknown;
    type: string;
    status: number;
    host: string;
    accepts(...types: string[]): string | false;
    get(header: string): string;
    set(header: string, value: string): void;
    cookies: {
      get(name: string, options?: { signed?: boolean }): string | undefined;
      set(name: string, value: string | null, options?: Record<string, unknown>): void;
    };
    oidc: {
      uid?: string;
      route: string;
      client?: ClientInfo;
      session?: { accountId?: string };
      params?: Record<string, unknown>;
    };
  }

  export interface ClientInfo {
    clientId: string;
    clientName?: string;
    clientAuthMethod: string;
    redirectUris: string[];
    postLogoutRedirectUris?: string[];
    grantTypeAllowed(type: string): boolean;
  }

  export interface Account {
    accountId: string;
    claims(use: string, scope: string, claims: unknown, rejected: string[]): Promise<Record<string, unknown>>;
  }

  export interface InteractionDetails {
    uid: string;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    params: Record<string, unknown> & { client_id?: string; scope?: string; ui_locales?: string };
    session?: { accountId?: string };
    grantId?: string;
    returnTo: string;
    lastSubmission?: Record<string, unknown>;
  }

  export interface InteractionResults {
    login?: { accountId: string; remember?: boolean };
    consent?: { grantId?: string };
    error?: string;
    error_description?: string;
  }

  export class Grant {
    constructor(properties: { accountId: string; clientId: string });
    static find(id: string): Promise<Grant | undefined>;
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    addResourceScope(indicator: string, scope: string): void;
    save(): Promise<string>;
  }

  export interface ProviderClientModel {
    find(id: string): Promise<ClientInfo | undefined>;
  }

  export type Configuration = Record<string, unknown>;

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    proxy: boolean;
    readonly issuer: string;
    readonly Grant: typeof Grant;
    readonly Client: ProviderClientModel;
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionResult(
      req: IncomingMessage,
      res: ServerResponse,
      result: InteractionResults,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<string>;
    on(event: string, listener: (...args: any[]) => void): this;
  }

  export const errors: Record<string, new (...args: any[]) => Error>;
}
