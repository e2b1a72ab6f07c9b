import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { REVIEW_LIMITS } from "../../../shared/domain/reviews";
import { errorBodySchema, messageSchema } from "../../../shared/schemas/common";
import {
  dentistOwnReviewsSchema,
  dentistReviewsSchema,
  moderationListSchema,
  moderationQuerySchema,
  moderationResultSchema,
  myReviewsSchema,
  REVIEW_MESSAGES,
  reviewAnswerSchema,
  reviewDecisionSchema,
  reviewInputSchema,
  reviewReasonSchema,
  reviewResultSchema,
  reviewsPageQuery,
} from "../../../shared/schemas/reviews";
import { pathId, requireVisible } from "../../access/guards";
import { guardedRoutes } from "../../access/route";
import { notFound } from "../../errors";
import { useCaseDeps } from "../../http/deps";
import { moderationRepo, publishedReviewsOf, reviewsRepo } from "./reviews.repo";
import {
  answerReview,
  decideReview,
  deleteReview,
  editReview,
  reportReview,
  writeReview,
} from "./reviews.service";

const errors = { 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const changeErrors = { 400: errorBodySchema, 409: errorBodySchema };
const params = z.object({ id: z.string() });

/** Verified patient reviews (issue 36, ADR 046): the author, the dentist, the team, patients choosing. */
export async function reviewRoutes(app: FastifyInstance): Promise<void> {
  const module = { tags: ["reviews"], errors };
  const patient = guardedRoutes(app, "patient", module);
  const dentist = guardedRoutes(app, "dentist", module);
  const admin = guardedRoutes(app, "admin", module);
  const reviewId = (id: string) => pathId(id, REVIEW_MESSAGES.notFound);
  const deps = (request: Parameters<typeof useCaseDeps>[0]) => useCaseDeps(request);

  // ─── The author ───
  patient.get("/api/patient/reviews", {
    summary: "Mes avis, et mes rendez-vous passés sur lesquels je peux encore en donner un",
    response: { 200: myReviewsSchema },
    handler: async (_request, _reply, actor) => {
      const repo = reviewsRepo(app.db, actor);
      const now = app.clock();
      const [reviews, invitations] = await Promise.all([repo.mine(now), repo.invitations(now)]);
      return { reviews, invitations };
    },
  });

  patient.post("/api/patient/appointments/:id/review", {
    summary: "Donner mon avis sur un rendez-vous passé, pris sur Sourio (un avis par rendez-vous)",
    params,
    body: reviewInputSchema,
    response: { 201: reviewResultSchema, ...changeErrors },
    preValidation: requireVisible("appointment", REVIEW_MESSAGES.appointmentNotFound),
    handler: async (request, reply, actor) => {
      const id = pathId(request.params.id, REVIEW_MESSAGES.appointmentNotFound);
      const review = await writeReview(deps(request), actor, id, request.body);
      return reply.status(201).send({ review, message: REVIEW_MESSAGES.sent });
    },
  });

  patient.put("/api/patient/reviews/:id", {
    summary: `Modifier mon avis (dans les ${REVIEW_LIMITS.editDays} jours ; il repasse en modération)`,
    params,
    body: reviewInputSchema,
    response: { 200: reviewResultSchema, ...changeErrors },
    preValidation: requireVisible("review", REVIEW_MESSAGES.notFound),
    handler: async (request, _reply, actor) => {
      const review = await editReview(deps(request), actor, reviewId(request.params.id), request.body);
      return { review, message: REVIEW_MESSAGES.edited };
    },
  });

  patient.delete("/api/patient/reviews/:id", {
    summary: "Supprimer mon avis (à tout moment)",
    params,
    response: { 200: messageSchema },
    handler: async (request, _reply, actor) => {
      await deleteReview(deps(request), actor, reviewId(request.params.id));
      return { message: REVIEW_MESSAGES.deleted };
    },
  });

  // ─── Patients choosing a dentist ───
  patient.get("/api/dentists/:id/reviews", {
    summary: "Les avis publiés d'un dentiste vérifié, du plus récent au plus ancien, avec sa note moyenne",
    params,
    querystring: reviewsPageQuery,
    response: { 200: dentistReviewsSchema, 400: errorBodySchema },
    handler: async (request) => {
      const found = await publishedReviewsOf(app.db, reviewId(request.params.id), request.query.page);
      if (!found) throw notFound(REVIEW_MESSAGES.notFound);
      const { items, hasMore, dentist: who, summary } = found;
      return {
        dentist: who,
        summary,
        items,
        page: request.query.page,
        page_size: REVIEW_LIMITS.pageSize,
        has_more: hasMore,
      };
    },
  });

  // ─── The dentist ───
  dentist.get("/api/dentist/reviews", {
    summary: "Les avis publiés sur moi, du plus récent au plus ancien",
    querystring: reviewsPageQuery,
    response: { 200: dentistOwnReviewsSchema, 400: errorBodySchema },
    handler: async (request, _reply, actor) => {
      const { page } = request.query;
      const repo = reviewsRepo(app.db, actor);
      // A dentist not verified reads none (D6): an empty list, and a count that says so.
      const [{ items, hasMore }, summary] = await Promise.all([repo.received(page), repo.receivedSummary()]);
      return {
        items,
        summary,
        page,
        page_size: REVIEW_LIMITS.pageSize,
        has_more: hasMore,
      };
    },
  });

  dentist.post("/api/dentist/reviews/:id/answer", {
    summary: "Répondre publiquement à un avis publié sur moi (une seule fois)",
    params,
    body: reviewAnswerSchema,
    response: { 200: messageSchema, ...changeErrors },
    preValidation: requireVisible("review", REVIEW_MESSAGES.notFound),
    handler: async (request, _reply, actor) => {
      await answerReview(deps(request), actor, reviewId(request.params.id), request.body.text);
      return { message: REVIEW_MESSAGES.answered };
    },
  });

  dentist.post("/api/dentist/reviews/:id/report", {
    summary: "Signaler à l'équipe un avis publié sur moi, avec la raison",
    params,
    body: reviewReasonSchema,
    response: { 200: messageSchema, ...changeErrors },
    preValidation: requireVisible("review", REVIEW_MESSAGES.notFound),
    handler: async (request, _reply, actor) => {
      await reportReview(deps(request), actor, reviewId(request.params.id), request.body.reason);
      return { message: REVIEW_MESSAGES.reported };
    },
  });

  // ─── The team ───
  admin.get("/api/admin/reviews", {
    summary: "Avis à modérer (ou signalés, publiés, refusés ; ceux d'un dentiste avec ?dentist=)",
    querystring: moderationQuerySchema,
    response: { 200: moderationListSchema, 400: errorBodySchema },
    handler: async (request) => {
      const { items, hasMore } = await moderationRepo.list(app.db, request.query);
      return { items, page: request.query.page, page_size: 20, has_more: hasMore };
    },
  });

  admin.post("/api/admin/reviews/:id/decision", {
    summary:
      "Publier un avis, le refuser (ou le retirer) avec une raison envoyée à son auteur, ou garder en ligne un avis signalé",
    params,
    body: reviewDecisionSchema,
    response: { 200: moderationResultSchema, ...changeErrors },
    preValidation: requireVisible("review", REVIEW_MESSAGES.notFound),
    handler: async (request, _reply, actor) =>
      decideReview(deps(request), actor, reviewId(request.params.id), request.body),
  });
}
