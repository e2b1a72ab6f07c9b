import { Ajv } from "ajv";
import fastJson from "fast-json-stringify";
import { serializerCompiler as zodSerializerCompiler } from "fastify-type-provider-zod";
import { z } from "zod";

/*
 * Compiled response serializers (issue 19, ADR 025). fastify-type-provider-zod's serializer runs
 * zod's encode over the whole response and then JSON.stringify: on a list page it is the largest
 * share of the route's own CPU. This compiler turns the same zod schema into its JSON schema once,
 * at start-up, and per response:
 * - checks it against that schema with a compiled Ajv validator (types, enums, required fields);
 * - writes it with fast-json-stringify, which writes ONLY the properties the schema names: a field
 *   a handler or a repository adds by mistake never reaches the client (as zod's strip did).
 * A response the validator refuses goes through zod's serializer, which answers exactly as before
 * (it fills a default, or refuses with the same 500). A schema zod cannot represent as JSON schema
 * (a transform, a custom check) keeps zod's serializer altogether.
 */

const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: false });

type Json = Record<string, unknown>;

/** `anyOf: [X, null]` as `type: [X.type, "null"]`: fast-json-stringify then needs no Ajv of its own. */
function simplify(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(simplify);
  if (schema === null || typeof schema !== "object") return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema as Json)) {
    out[key] = key === "enum" || key === "const" || key === "required" ? value : simplify(value);
  }
  const anyOf = out.anyOf as Json[] | undefined;
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const nullIndex = anyOf.findIndex((s) => s.type === "null" && Object.keys(s).length === 1);
    const other = anyOf[1 - nullIndex];
    if (nullIndex !== -1 && other && typeof other.type === "string" && !("anyOf" in other)) {
      const { anyOf: _, ...rest } = out;
      return {
        ...rest,
        ...other,
        type: [other.type, "null"],
        ...(Array.isArray(other.enum) ? { enum: [...other.enum, null] } : {}),
      };
    }
  }
  return out;
}

/** The same schema without `additionalProperties: false`: the validator lets extra fields through (the writer drops them). */
function lenient(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(lenient);
  if (schema === null || typeof schema !== "object") return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema as Json)) {
    if (key === "additionalProperties" && value === false) continue;
    out[key] = key === "enum" || key === "const" || key === "required" ? value : lenient(value);
  }
  return out;
}

/** The JSON schema of a zod response schema, or null when zod cannot represent it exactly. */
export function responseJsonSchema(schema: unknown): Json | null {
  if (!(schema instanceof z.ZodType)) return null;
  try {
    const { $schema: _, ...json } = z.toJSONSchema(schema, { io: "output", target: "draft-7" }) as Json;
    return simplify(json) as Json;
  } catch {
    return null;
  }
}

type CompiledSerializer = (data: unknown) => string;

/**
 * The compiled serializers by zod schema: each schema is compiled once per process, whichever app
 * or route asks (the compiled function is pure: a schema's JSON schema, its validator and its
 * writer). In production an app compiles each of its routes' schemas at start-up anyway; the test
 * suite builds an app per test file in each worker, and compiling every route's serializers again
 * was two thirds of an app's `ready` (about 0.25 CPU-s an app, ADR 054).
 */
const compiledBySchema = new WeakMap<object, CompiledSerializer | null>();

/** A compiled serializer for one zod response schema, or null when it must stay zod's. */
export function compileResponseSerializer(schema: unknown): CompiledSerializer | null {
  if (schema === null || typeof schema !== "object") return null;
  const known = compiledBySchema.get(schema);
  if (known !== undefined) return known;
  const compiled = compile(schema);
  compiledBySchema.set(schema, compiled);
  return compiled;
}

function compile(schema: object): CompiledSerializer | null {
  const json = responseJsonSchema(schema);
  if (!json) return null;
  try {
    const validate = ajv.compile(lenient(json) as Json);
    const write = fastJson(json as unknown as Parameters<typeof fastJson>[0]);
    return (data) => {
      if (!validate(data)) throw new Error("invalid");
      return write(data);
    };
  } catch {
    return null;
  }
}

/** Fastify's serializer compiler: the compiled serializer when there is one, zod's otherwise. */
export const fastSerializerCompiler: typeof zodSerializerCompiler = (route) => {
  const zod = zodSerializerCompiler(route);
  const compiled = compileResponseSerializer(route.schema);
  if (!compiled) return zod;
  return (data: unknown) => {
    try {
      return compiled(data);
    } catch {
      // Refused by the validator (or a value fast-json-stringify cannot write): zod decides.
      return zod(data);
    }
  };
};
