import { vi } from 'vitest';

/** One request as the fake API saw it. */
export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  headers: Headers;
}

/** An answer: a status and a JSON body, or a failure to reach the server at all. */
export type FakeAnswer = { status: number; body?: unknown } | 'network-error';

export type FakeHandler = (request: FakeRequest) => FakeAnswer | Promise<FakeAnswer>;

/** The API's one error body (common/api/errors.ts). */
export const apiError = (
  status: number,
  code: string,
  message: string,
  details?: { path: string; message: string; values?: Record<string, string | number> }[],
): FakeAnswer => ({
  status,
  body: { error: { code, message, ...(details ? { details } : {}) } },
});

/**
 * Replaces `fetch` with a fake that answers like the portal's API, keyed by "METHOD /api/path".
 * Unknown routes answer 404 with the API's error body, so a missing handler shows as a failure.
 */
/** JSON, or a form's fields (the OpenID Connect logout handshake posts one). */
function parseBody(body: string, headers: Headers): unknown {
  if (headers.get('content-type') === 'application/x-www-form-urlencoded') {
    return Object.fromEntries(new URLSearchParams(body));
  }
  return JSON.parse(body);
}

export function fakeApi(routes: Record<string, FakeHandler>) {
  const requests: FakeRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input, 'http://portal.test');
    const request: FakeRequest = {
      method: (init?.method ?? 'GET').toUpperCase(),
      path: url.pathname,
      query: url.searchParams,
      body: typeof init?.body === 'string' ? parseBody(init.body, new Headers(init.headers)) : undefined,
      headers: new Headers(init?.headers),
    };
    requests.push(request);
    const handler = routes[`${request.method} ${request.path}`];
    const answer = handler ? await handler(request) : apiError(404, 'not_found', 'Not found');
    if (answer === 'network-error') throw new TypeError('Failed to fetch');
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    requests,
    /** The requests made to one route, e.g. calls('PATCH /api/users/2'). */
    calls: (route: string) => requests.filter((r) => `${r.method} ${r.path}` === route),
  };
}
