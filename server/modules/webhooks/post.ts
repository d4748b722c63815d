import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import { addressRefusal, isIpAddress } from './address';

/** What an attempt got: the status (null without an answer), how long it took, and why it failed. */
interface PostResult {
  status: number | null;
  ms: number;
  error: string | null;
}

/** A response body is read up to this many bytes, then dropped: its content matters to no one. */
const RESPONSE_BODY_CAP = 64 * 1024;

class Refused extends Error {}

/**
 * A lookup that resolves the host once and refuses it when any of its addresses may not be reached,
 * so that what the connection uses is what was checked (no second resolution to rebind).
 */
function checkedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, family: options.family, hints: options.hints }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      for (const { address } of addresses) {
        const refusal = addressRefusal(address, allowPrivate);
        if (refusal) return callback(new Refused(`refused: ${hostname} resolves to ${refusal}`), '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/**
 * POSTs one webhook body (docs/webhooks.md): no redirect is followed (a 3xx is a failure), the whole
 * attempt is bounded by `timeoutMs`, the answer's body is read up to RESPONSE_BODY_CAP and dropped,
 * and only allowed addresses are reached: an IP in the URL is checked before connecting, a name when
 * it resolves, and the socket's peer once connected. No connection is reused, no proxy is used.
 */
export function postWebhook(
  target: string,
  body: string,
  headers: Record<string, string>,
  options: { timeoutMs: number; allowPrivate: boolean },
): Promise<PostResult> {
  const began = performance.now();
  const elapsed = () => Math.round(performance.now() - began);
  return new Promise((resolve) => {
    let settled = false;
    let status: number | null = null;
    /** once answered: null for a 2xx, else why the attempt failed */
    let outcome: string | null = null;
    let request: http.ClientRequest | null = null;
    const finish = (error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ status, ms: elapsed(), error });
    };
    const timer = setTimeout(() => {
      // answered, but the body is still coming: the status decides, the rest is dropped
      if (status !== null) finish(outcome);
      request?.destroy(new Error(`no answer within ${options.timeoutMs / 1000} s`));
    }, options.timeoutMs);
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return finish('refused: not a URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return finish(`refused: ${url.protocol} is not http(s)`);
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    // an address in the URL is connected to as it is, without a lookup: check it here
    const literal = isIpAddress(host) ? addressRefusal(host, options.allowPrivate) : null;
    if (literal) return finish(`refused: ${literal}`);

    const transport = url.protocol === 'https:' ? https : http;
    request = transport.request(url, {
      method: 'POST',
      agent: false,
      lookup: checkedLookup(options.allowPrivate),
      headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)), Connection: 'close' },
    });

    request.on('socket', (socket: Socket) => {
      socket.once('connect', () => {
        const refusal = socket.remoteAddress ? addressRefusal(socket.remoteAddress, options.allowPrivate) : null;
        if (refusal) request?.destroy(new Refused(`refused: connected to ${refusal}`));
      });
    });
    request.on('error', (error: Error & { code?: string }) => {
      const message =
        error instanceof Refused ? error.message : `${error.code ? `${error.code}: ` : ''}${error.message}`;
      finish(message);
    });
    request.on('response', (response) => {
      status = response.statusCode ?? null;
      const ok = status !== null && status >= 200 && status < 300;
      outcome = ok
        ? null
        : status !== null && status >= 300 && status < 400
          ? `the endpoint answered ${status} (redirects are not followed)`
          : `the endpoint answered ${status}`;
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > RESPONSE_BODY_CAP) {
          response.destroy();
          finish(outcome);
        }
      });
      response.on('end', () => finish(outcome));
      response.on('error', () => finish(outcome));
      response.on('close', () => finish(outcome));
    });
    request.end(body);
  });
}
