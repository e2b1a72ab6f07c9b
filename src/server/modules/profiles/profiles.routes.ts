import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { splitFullName } from "../../../shared/format/names";
import { errorBodySchema } from "../../../shared/schemas/common";
import {
  AVATAR_MAX_SIZE,
  emailPreferencesUpdateSchema,
  meResponseSchema,
  PROFILE_MESSAGES,
  profileUpdateSchema,
} from "../../../shared/schemas/profile";
import { guardedRoutes } from "../../access/route";
import { subscriptionSummaryOf, summaryOf } from "../../access/subscription";
import { avatarKeyOf } from "../../db/file-keys";
import { AppError, notFound } from "../../errors";
import { assertKnownPostalCode } from "../../geo/postal-codes";
import { fastSerializerCompiler } from "../../plugins/fast-serializer";
import { announceTeamWork } from "../../realtime/team";
import { avatarUrl, storeAvatar } from "./avatar";
import { updateOwnAvatar } from "./profiles.repo";
import { requestVerification, toProfileDto, updateProfile } from "./profiles.service";

const errors = { 401: errorBodySchema };

export async function profileRoutes(app: FastifyInstance): Promise<void> {
  // Responses written by compiled serializers: only the schema's fields (plugins/fast-serializer.ts).
  app.setSerializerCompiler(fastSerializerCompiler);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const module = { tags: ["profiles"], errors };
  const dentist = guardedRoutes(app, "dentist", module);
  const signedIn = guardedRoutes(app, "signed-in", module);

  signedIn.get("/api/me", {
    summary: "Mon profil (la session en cours)",
    response: { 200: meResponseSchema },
    handler: async (_request, reply, actor) => {
      reply.header("cache-control", "no-store");
      // A dentist's subscription, the row access decided this request with, so screens and server
      // agree (issue 35); the session cache holds it (no query, issue 38), read here otherwise.
      const subscription =
        actor.profile.role !== "dentist"
          ? undefined
          : actor.subscription !== undefined
            ? actor.subscription && summaryOf(actor.subscription, app.clock())
            : await subscriptionSummaryOf(app.db, actor.userId, app.clock());
      return { profile: toProfileDto(actor.profile), ...(subscription !== undefined && { subscription }) };
    },
  });

  signedIn.patch("/api/me", {
    summary:
      "Modifier mon profil (nom, téléphone, ville, code postal ; biographie, spécialités, RPPS et cabinet pour les dentistes)",
    body: profileUpdateSchema,
    response: { 200: meResponseSchema, 400: errorBodySchema },
    handler: async (request, _reply, actor) => {
      const body = request.body;
      const { firstName, lastName } = splitFullName(body.full_name);
      const isDentist = actor.profile.role === "dentist";
      if (isDentist) assertKnownPostalCode(body.practice_postcode, "practice_postcode");
      else assertKnownPostalCode(body.postal_code, "postal_code");
      const profile = await updateProfile(app.db, actor, {
        first_name: firstName,
        last_name: lastName,
        full_name: [firstName, lastName].filter(Boolean).join(" "),
        phone_number: body.phone_number,
        city: body.city,
        ...(isDentist && body.bio !== undefined ? { bio: body.bio } : {}),
        ...(isDentist && body.specialties !== undefined ? { specialties: body.specialties } : {}),
        // Fixed while verified: updateProfile refuses a change (ADR 075).
        ...(isDentist && body.rpps !== undefined ? { rpps: body.rpps } : {}),
        ...(isDentist && body.practice_address !== undefined
          ? { practice_address: body.practice_address }
          : {}),
        ...(isDentist && body.practice_postcode !== undefined
          ? { practice_postcode: body.practice_postcode }
          : {}),
        ...(!isDentist && body.birth_date !== undefined ? { birth_date: body.birth_date } : {}),
        ...(!isDentist && body.postal_code !== undefined ? { postal_code: body.postal_code } : {}),
      });
      return { profile: toProfileDto(profile) };
    },
  });

  signedIn.patch("/api/me/email-preferences", {
    summary:
      "Choisir les e-mails que je reçois parmi ceux que l'on peut arrêter (messages non lus, rappels de rendez-vous, avis, nouvelles demandes du matin)",
    body: emailPreferencesUpdateSchema,
    response: { 200: meResponseSchema, 400: errorBodySchema },
    handler: async (request, _reply, actor) => {
      const { messages, reminders, reviews, new_requests } = request.body;
      const profile = await updateProfile(app.db, actor, {
        ...(messages !== undefined && { email_messages: messages }),
        ...(reminders !== undefined && { email_reminders: reminders }),
        ...(reviews !== undefined && { email_reviews: reviews }),
        ...(new_requests !== undefined && { email_new_requests: new_requests }),
      });
      return { profile: toProfileDto(profile) };
    },
  });

  dentist.post("/api/me/verification-request", {
    summary: "Demander une vérification (dentiste non vérifié, RPPS et adresse du cabinet renseignés)",
    response: { 200: meResponseSchema, 400: errorBodySchema, 403: errorBodySchema, 409: errorBodySchema },
    handler: async (request, _reply, actor) => {
      const profile = await requestVerification(app.db, actor);
      announceTeamWork({ bus: app.bus, log: request.log });
      return { profile: toProfileDto(profile) };
    },
  });

  signedIn.post("/api/me/avatar", {
    summary: "Changer ma photo (JPG ou PNG, 5 Mo et 25 mégapixels au plus ; recadrée en 256 px)",
    consumes: ["multipart/form-data"],
    response: { 200: meResponseSchema, 400: errorBodySchema, 413: errorBodySchema, 415: errorBodySchema },
    handler: async (request, _reply, actor) => {
      if (!request.isMultipart())
        throw new AppError(415, "UNSUPPORTED_MEDIA_TYPE", PROFILE_MESSAGES.avatarMissing);
      const part = await request.file({ limits: { fileSize: AVATAR_MAX_SIZE, files: 1 } });
      if (!part?.filename) {
        throw new AppError(400, "VALIDATION_ERROR", PROFILE_MESSAGES.avatarMissing, {
          avatar: PROFILE_MESSAGES.avatarMissing,
        });
      }
      const key = await storeAvatar(part, app.storage, actor.userId, (data) => app.readings.avatar(data));
      const previous = avatarKeyOf(actor.profile.avatar_url);
      let profile: Awaited<ReturnType<typeof updateOwnAvatar>>;
      try {
        profile = await updateOwnAvatar(app.db, actor, avatarUrl(key));
      } catch (error) {
        await app.storage.remove(key);
        throw error;
      }
      if (previous) await app.storage.remove(previous).catch(() => {});
      return { profile: toProfileDto(profile) };
    },
  });

  // Avatars are public images (unlike documents, ADR 005), under random keys, cached for good.
  r.get(
    "/api/avatars/:userId/:file",
    {
      schema: {
        tags: ["profiles"],
        summary: "Photo de profil",
        params: z.object({ userId: z.string(), file: z.string() }),
        response: { 404: errorBodySchema },
      },
      compress: false,
    },
    async (request, reply) => {
      const key = avatarKeyOf(`/api/avatars/${request.params.userId}/${request.params.file}`);
      const size = key ? await app.storage.size(key) : null;
      if (!key || size === null) throw notFound("Image introuvable.");
      return reply
        .header("content-type", "image/webp")
        .header("content-length", size)
        .header("cache-control", "public, max-age=31536000, immutable")
        .send(app.storage.read(key) as never);
    },
  );
}
