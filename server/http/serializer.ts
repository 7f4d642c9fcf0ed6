import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import fastJson from 'fast-json-stringify';
import { z } from 'zod';

/** The zod schema a route declared for a response (Fastify hands over `{ properties }` wrappers of it too). */
function zodSchemaOf(schema: unknown): z.ZodType {
  if (schema instanceof z.ZodType) return schema;
  const inner = (schema as { properties?: unknown } | null)?.properties;
  if (inner instanceof z.ZodType) return inner;
  throw new Error(`a response schema must be a zod schema: ${JSON.stringify(schema)}`);
}

/**
 * Answers are written by Fastify's own compiled serializer (fast-json-stringify) from the JSON Schema of the route's
 * zod contract, the same document the OpenAPI description shows: only the properties the contract declares are
 * written (a field a handler adds by mistake, a password hash say, never leaves), in one pass without first copying
 * the answer through zod (for the dashboard's 100-alert list such a copy is a third of the request's allocations).
 */
export const contractSerializerCompiler: FastifySerializerCompiler<unknown> = ({ schema }) => serializerOf(zodSchemaOf(schema));

type Serialize = (data: unknown) => string;

// One serializer per schema, however many routes and status codes answer with it (ErrorBody: nearly every route's
// 400, 401, 403, 404 and 409).
const serializers = new WeakMap<z.ZodType, Serialize>();

function serializerOf(schema: z.ZodType): Serialize {
  let serializer = serializers.get(schema);
  if (!serializer) {
    // The contract becomes JSON Schema at start (a schema that cannot stops the server there); the serializer is
    // generated on its first answer (generating all of them up front made every start 0.4 s slower).
    const jsonSchema = z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'any' });
    let serialize: Serialize | undefined;
    serializer = (data) => (serialize ??= fastJson(jsonSchema as never))(data);
    serializers.set(schema, serializer);
  }
  return serializer;
}
