/**
 * How answers become JSON (decision 055). Each route's response schema (zod) is turned once into
 * JSON Schema and compiled by fast-json-stringify, Fastify's own serializer: it writes the declared
 * fields only (an undeclared one never leaves the server), in code generated for that shape.
 *
 * Outside production each answer is also checked against its zod schema first, as before, and the
 * compiled serializer's output is compared with the checked value's: a handler that returns
 * something its schema does not describe, or a schema the compiled serializer would render
 * differently, fails the tests instead of reaching a user. A schema that cannot be compiled (none
 * today; `serializers.gaps` lists them) keeps zod's check and JSON.stringify.
 */
import { isDeepStrictEqual } from 'node:util';
import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { $ZodType } from 'zod/v4/core';

/** Response schemas seen, as "METHOD url status": compiled, or left to zod and JSON.stringify. */
export const serializers: { compiled: string[]; gaps: string[] } = { compiled: [], gaps: [] };

function zodSchemaOf(maybeSchema: unknown): $ZodType {
  if (maybeSchema instanceof $ZodType) return maybeSchema;
  const properties = (maybeSchema as { properties?: unknown } | null)?.properties;
  if (properties instanceof $ZodType) return properties;
  throw new Error(`not a zod schema: ${JSON.stringify(maybeSchema)}`);
}

function compile(schema: $ZodType): ((data: unknown) => string) | null {
  try {
    const json = z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'throw' });
    return fastJson(json as Parameters<typeof fastJson>[0]);
  } catch {
    return null;
  }
}

export function responseSerializerCompiler(options: {
  /** check each answer against its zod schema (everywhere but production) */
  check: boolean;
}): FastifySerializerCompiler<unknown> {
  return ({ schema: maybeSchema, method, url, httpStatus }) => {
    const schema = zodSchemaOf(maybeSchema);
    const compiled = compile(schema);
    serializers[compiled ? 'compiled' : 'gaps'].push(`${method} ${url} ${httpStatus}`);
    const checked = (data: unknown) => {
      const result = z.safeEncode(schema, data);
      if (result.error) throw new ResponseSerializationError(method, url, { cause: result.error });
      return result.data;
    };
    if (!compiled) return (data) => JSON.stringify(checked(data));
    if (!options.check) return compiled;
    return (data) => {
      const value = checked(data);
      const text = compiled(value);
      const expected = JSON.parse(JSON.stringify(value)) as unknown;
      if (!isDeepStrictEqual(JSON.parse(text), expected)) {
        throw new ResponseSerializationError(method, url, {
          cause: new z.ZodError([
            {
              code: 'custom',
              path: [],
              input: value,
              message: `the compiled serializer wrote ${text} for ${JSON.stringify(value)}`,
            },
          ]),
        });
      }
      return text;
    };
  };
}
