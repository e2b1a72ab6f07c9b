import type {
  ContextConfigDefault,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteOptions,
  RouteShorthandOptions,
} from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { z } from "zod";
import type { Area } from "../../shared/policies/redirects";
import { type Actor, actorOf, requireArea } from "../access/actor";

/** A route's own schema: its summary, what it reads, and the answers that are its own. */
export interface OwnSchema extends FastifySchema {
  summary: string;
  tags?: string[];
  params?: z.ZodType;
  querystring?: z.ZodType;
  body?: z.ZodType;
  response?: Record<number, z.ZodType>;
}

type Options<S extends FastifySchema> = RouteShorthandOptions<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  S,
  ZodTypeProvider
>;

/** A guard of its own (an onRequest hook that throws 401 or 403), where an area does not say who. */
export type Guard = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * A route's declaration: who may call it (an area, checked in onRequest, before the body is
 * read), its own schema, and the hooks or options of its own (a preValidation guard, compress).
 */
export type RouteSpec<S extends OwnSchema> = S & { who: Area | "signed-in" | Guard } & Pick<
    Options<S>,
    "preValidation" | "compress"
  >;

/** The request and reply as Fastify and the zod type provider type them for the schema S. */
export type RouteRequest<S extends FastifySchema> = FastifyRequest<
  RouteGenericInterface,
  RawServerDefault,
  RawRequestDefaultExpression,
  S,
  ZodTypeProvider
>;
export type RouteReply<S extends FastifySchema> = FastifyReply<
  RouteGenericInterface,
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  ContextConfigDefault,
  S,
  ZodTypeProvider
>;
type Returns<S extends FastifySchema> = ReturnType<
  RouteHandlerMethod<
    RawServerDefault,
    RawRequestDefaultExpression,
    RawReplyDefaultExpression,
    RouteGenericInterface,
    ContextConfigDefault,
    S,
    ZodTypeProvider
  >
>;

/** The use case of a route: its request and reply, typed by its schema, and the signed-in actor. */
export type UseCase<S extends FastifySchema> = (
  request: RouteRequest<S>,
  reply: RouteReply<S>,
  actor: Actor,
) => Returns<S>;

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
type Declare = <S extends OwnSchema>(url: string, spec: RouteSpec<S>, useCase: UseCase<S>) => void;

/**
 * The routes of a module behind an area guard (ADR 034). `tags` and `errors` are the module's
 * OpenAPI tags and the error answers every one of its routes may give (401, 403, 404...); each
 * declaration says only what is its own, and its use case gets the request's actor.
 */
export function guardedRoutes(
  app: FastifyInstance,
  module: { tags: string[]; errors: Record<number, z.ZodType> },
): Record<"get" | "post" | "put" | "patch" | "delete", Declare> {
  const declare =
    (method: Method): Declare =>
    (url, { who, preValidation, compress, tags = module.tags, ...own }, useCase) => {
      const schema: FastifySchema = { tags, ...own, response: { ...own.response, ...module.errors } };
      app.route({
        method,
        url,
        schema,
        onRequest: typeof who === "function" ? who : requireArea(who),
        // the hook and the use case were typed against the schema S by the declaration's type
        ...(preValidation && { preValidation: preValidation as RouteOptions["preValidation"] }),
        ...(compress !== undefined && { compress }),
        handler: async (request, reply) =>
          useCase(request as never, reply as never, await actorOf(request, reply)),
      });
    };
  return {
    get: declare("GET"),
    post: declare("POST"),
    put: declare("PUT"),
    patch: declare("PATCH"),
    delete: declare("DELETE"),
  };
}
