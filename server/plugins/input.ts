import { EventEmitter } from 'node:events';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { invalidField } from '../validation';

const NUL = '\u0000';
/** A message key (client/i18n): the English text of error.message comes from it too. */
const NO_NUL = 'errors.noNul';

/**
 * What a parser makes (JSON, a form, a query string), as opposed to an upload's stream (an event
 * emitter: the request itself, whose socket and server make a graph without end) or a webhook's bytes.
 */
function isParsedObject(value: object): boolean {
  return !(value instanceof EventEmitter) && !(value instanceof Uint8Array);
}

/**
 * The path of the first string (value or key) holding a NUL character, or null. Iterative, since a
 * 1 MiB body can nest arrays half a million levels deep. Only what a parser makes is walked, each
 * object once: a streamed upload's body is the request itself, whose socket and server make a graph
 * without end.
 */
function findNul(value: unknown): string | null {
  const stack: { value: unknown; path: string }[] = [{ value, path: '' }];
  const seen = new WeakSet<object>();
  while (stack.length > 0) {
    const { value: current, path } = stack.pop()!;
    if (typeof current === 'object' && current !== null) {
      if (seen.has(current)) continue;
      seen.add(current);
    }
    if (typeof current === 'string') {
      if (current.includes(NUL)) return path;
    } else if (Array.isArray(current)) {
      current.forEach((item, i) => stack.push({ value: item, path: path ? `${path}.${i}` : String(i) }));
    } else if (current !== null && typeof current === 'object' && isParsedObject(current)) {
      // (a webhook's raw bytes and an upload's stream are not fields: they are left alone)
      for (const [key, item] of Object.entries(current)) {
        const itemPath = path ? `${path}.${key}` : key;
        if (key.includes(NUL)) return itemPath;
        stack.push({ value: item, path: itemPath });
      }
    }
  }
  return null;
}

/**
 * Refuses NUL characters anywhere in the body, the query string or the path parameters, for every
 * route at once: PostgreSQL cannot store them in text (it would fail the statement, a 500), SQLite
 * would keep a value that ends early for C code, and no field of the API has a use for one.
 */
async function inputPlugin(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    for (const part of [request.params, request.query, request.body]) {
      const path = findNul(part);
      if (path !== null) {
        const where = path.replaceAll(NUL, '\\0');
        throw invalidField(where, NO_NUL);
      }
    }
  });
}

export const input = fp(inputPlugin, { name: 'input' });
