import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { access } from '../plugins/access';
import { createProductToken, createUnpublishedVersion } from '../test/artifacts';
import { createProduct } from '../test/factories';
import { createTestApp, type TestApp } from '../test/harness';

/**
 * What a listening portal does with connections that misbehave below the API: a request without a
 * Host header, headers or a body that stop arriving. Each answer is the portal's one error body
 * with the security headers, and the connection is closed, not held.
 */
let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await createTestApp(
    { HEADERS_TIMEOUT_MS: '1000', BODY_TIMEOUT_MS: '1000' },
    {},
    {
      testRoutes: async (api) => {
        api.post('/test/upload', { config: { access: access.public, bodyTimeoutMs: 10_000 } }, async (request) => ({
          received: JSON.stringify(request.body).length,
        }));
      },
    },
  );
  port = Number(new URL(await t.app.listen({ host: '127.0.0.1', port: 0 })).port);
});
afterAll(() => t.close());

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** milliseconds from connecting to the server closing the connection */
  closedAfter: number;
}

/** Writes the parts on one connection, `gapMs` apart, and reads until the server closes it. */
function exchange(parts: string[], gapMs = 0): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    let data = '';
    let timer: NodeJS.Timeout | undefined;
    socket.on('connect', () => {
      let next = 0;
      const send = () => {
        if (next >= parts.length || socket.destroyed) return;
        socket.write(parts[next++]);
        timer = setTimeout(send, gapMs);
      };
      send();
    });
    socket.on('data', (chunk: Buffer) => {
      data += chunk.toString();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      const [head = '', body = ''] = data.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body, closedAfter: Date.now() - started });
    });
  });
}

function expectPortalError(answer: RawAnswer, status: number, message: string) {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  expect(JSON.parse(answer.body)).toEqual({ error: { code: 'validation_error', message } });
}

describe('a request without a Host header', () => {
  it('answers HTTP/1.1 without Host with the error body and the security headers', async () => {
    const answer = await exchange(['GET /api/health HTTP/1.1\r\nConnection: close\r\n\r\n']);
    expectPortalError(answer, 400, 'The Host header is missing');
  });

  it('serves HTTP/1.0, which has no Host header to require', async () => {
    const answer = await exchange(['GET /api/health HTTP/1.0\r\n\r\n']);
    expect(answer.status).toBe(200);
  });
});

describe('requests that stop arriving', () => {
  const head = (length: number, url = '/api/auth/login') =>
    `POST ${url} HTTP/1.1\r\nHost: portal.test\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

  it('answers 408 and closes the connection when the body stops arriving', async () => {
    const answer = await exchange([head(100) + '{"email":']);
    expectPortalError(answer, 408, 'The request body took too long to arrive');
    expect(answer.headers.connection).toBe('close');
    expect(answer.closedAfter).toBeLessThan(5000);
  });

  it('does not let a body dripping a byte at a time hold the connection past the limit', async () => {
    const body = '{"email":"a@example.com","password":"x"}';
    const answer = await exchange([head(body.length), ...body], 200);
    expectPortalError(answer, 408, 'The request body took too long to arrive');
    expect(answer.closedAfter).toBeLessThan(5000);
  });

  it('leaves no body timer behind a request answered without reading its body', async () => {
    // an unsupported content type is refused before the body is read: the body's timer must not
    // fire afterwards on a stream nobody reads (an uncaught error would fail this run)
    const errors: unknown[] = [];
    const record = (error: unknown) => errors.push(error);
    process.on('uncaughtException', record);
    try {
      const answer = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': 'application/x-unknown' },
        payload: 'whatever',
      });
      expect(answer.statusCode).toBe(415);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(errors).toEqual([]);
    } finally {
      process.off('uncaughtException', record);
    }
  });

  it('answers 408 when the headers stop arriving', async () => {
    const answer = await exchange(['POST /api/auth/login HTTP/1.1\r\nHost: portal.test\r\n']);
    expectPortalError(answer, 408, 'The request took too long to arrive');
    expect(answer.closedAfter).toBeLessThan(5000);
  });

  it('gives a route that declares a longer body limit its time', async () => {
    const body = JSON.stringify({ data: 'x'.repeat(40) });
    const parts = [`${head(body.length, '/api/test/upload')}`, body.slice(0, 10), body.slice(10, 20), body.slice(20)];
    const answer = await exchange(
      parts.map((p, i) => (i === parts.length - 1 ? p : p)),
      600,
    );
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ received: body.length });
  });
});

/**
 * Sends `head`, then drips one byte of the body every `gapMs` until the server closes the connection
 * (or `giveUpMs` passes, when the client closes it itself and says so).
 */
function dripUntilClosed(
  head: string,
  gapMs: number,
  giveUpMs: number,
): Promise<RawAnswer & { closedByServer: boolean }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    let data = '';
    let closedByServer = true;
    const drip = setInterval(() => {
      if (!socket.destroyed && socket.writable) socket.write('x');
    }, gapMs);
    const giveUp = setTimeout(() => {
      closedByServer = false;
      socket.destroy();
    }, giveUpMs);
    socket.on('connect', () => socket.write(head));
    socket.on('data', (chunk: Buffer) => {
      data += chunk.toString();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
    });
    socket.on('close', () => {
      clearInterval(drip);
      clearTimeout(giveUp);
      const [head = '', body = ''] = data.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers,
        body,
        closedAfter: Date.now() - started,
        closedByServer,
      });
    });
  });
}

describe('a request refused before its body is read', () => {
  // keep-alive (no Connection: close from the client) and a body far larger than what it will send
  const head = (method: string, url: string, length: number, type = 'application/json') =>
    `${method} ${url} HTTP/1.1\r\nHost: portal.test\r\nContent-Type: ${type}\r\nContent-Length: ${length}\r\n\r\n`;

  it.each([
    ['without a session', 'POST', '/api/customers', 500_000, 401],
    ['an upload without a session', 'PUT', '/api/versions/1/artifacts/linux-x64', 100_000_000, 401],
    ['on no route', 'POST', '/api/no-such-route', 500_000, 404],
    ['as larger than the limit', 'POST', '/api/auth/login', 100_000_000, 413],
    ['for its content type', 'POST', '/api/auth/login', 500_000, 415, 'text/plain'],
  ])(
    'closes the connection within seconds when refused %s, however the body drips',
    async (...[, method, url, length, status, type]) => {
      const answer = await dripUntilClosed(head(method, url, length, type), 100, 8000);
      expect(answer.status).toBe(status);
      expect(answer.headers.connection).toBe('close');
      expect(answer.closedByServer).toBe(true);
      expect(answer.closedAfter).toBeLessThan(3000);
    },
  );

  it('does not cut an upload that is allowed, however slowly it arrives', async () => {
    // the artifact route declares a body limit of hours: its body arrives over more than the
    // BODY_TIMEOUT_MS of this app (1 s) and is read as it comes, so nothing answers before its end
    const { key } = await createProduct(t.app.ctx.db);
    const versionId = await createUnpublishedVersion(t.app.ctx.db, key);
    const { token } = await createProductToken(t.app.ctx.db, key);
    const file = 'a slow file, sent in parts';
    const upload =
      `PUT /api/versions/${versionId}/artifacts/linux?fileName=slow.bin HTTP/1.1\r\nHost: portal.test\r\n` +
      `Connection: close\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/octet-stream\r\n` +
      `Content-Length: ${file.length}\r\n\r\n`;
    const answer = await exchange([upload, file.slice(0, 8), file.slice(8, 16), file.slice(16)], 700);
    expect(answer.status).toBe(200);
    expect(answer.closedAfter).toBeGreaterThan(1000);
    expect(JSON.parse(answer.body)).toMatchObject({ platform: 'linux', fileName: 'slow.bin', size: file.length });
  });
});
