import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { mayOffer, parisToday } from "../../../shared/policies/offers";
import { errorBodySchema } from "../../../shared/schemas/common";
import { DENTIST_MESSAGES } from "../../../shared/schemas/dentist";
import {
  DENTIST_OFFERS_PAGE_SIZE,
  dentistOfferListSchema,
  dentistOffersQuerySchema,
  myOfferSchema,
  OFFER_MESSAGES,
  offerAcceptedSchema,
  offerCreatedSchema,
  offerInputSchema,
  offerUnacceptedSchema,
  offerWithdrawnSchema,
} from "../../../shared/schemas/offers";
import { ageOn } from "../../../shared/schemas/profile";
import { compareQuotes, comparisonSchema } from "../../../shared/schemas/quotes";
import { REQUEST_NOT_FOUND } from "../../../shared/schemas/requests";
import { foundOr404, pathId, requireVisible } from "../../access/guards";
import { guardedRoutes } from "../../access/route";
import { useCaseDeps } from "../../http/deps";
import { patientCover, patientQuoteLines } from "../quotes/quotes.service";
import { dentistOffersRepo, patientOffersRepo } from "./offers.repo";
import { acceptOffer, submitOffer, unacceptOffer, withdrawOffer } from "./offers.service";

const errors = { 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

/** The dentist's offers on requests (ADR 008): the proposal page reads and sends them. */
export async function offerRoutes(app: FastifyInstance): Promise<void> {
  const module = { tags: ["offers"], errors };
  const dentist = guardedRoutes(app, "dentist", module);
  const patient = guardedRoutes(app, "patient", module);
  const params = z.object({ id: z.string() });

  dentist.get("/api/dentist/requests/:id/offer", {
    summary:
      "Ma proposition sur cette demande (ou null), si je peux en envoyer une, et alors mes derniers honoraires par acte",
    params,
    response: { 200: myOfferSchema },
    handler: async (request, _reply, actor) => {
      const repo = dentistOffersRepo(app.db, actor);
      const id = request.params.id;
      const context = await foundOr404(id, repo.context, DENTIST_MESSAGES.notFound);
      const now = app.clock();
      const open = mayOffer(context.status, context.my_status);
      // His last fees only for a form he may fill (ADR 097).
      const [offer, lastFees] = await Promise.all([repo.onRequest(id, now), open ? repo.lastFees() : []]);
      const live = offer !== null && (offer.state === "sent" || offer.state === "accepted");
      const may_offer = !live && open;
      return {
        offer,
        may_offer,
        patient_age: context.birth_date ? ageOn(context.birth_date, parisToday(now)) : null,
        last_fees: may_offer ? lastFees : [],
      };
    },
  });

  dentist.post("/api/dentist/requests/:id/offers", {
    summary: "Envoyer une proposition de devis (compte comme ma réponse ; ouvre la conversation)",
    params,
    body: offerInputSchema,
    response: { 201: offerCreatedSchema, 400: errorBodySchema, 409: errorBodySchema },
    preValidation: requireVisible("request", DENTIST_MESSAGES.notFound),
    handler: async (request, reply, actor) => {
      const id = pathId(request.params.id, DENTIST_MESSAGES.notFound);
      const { offer, conversationId } = await submitOffer(useCaseDeps(request), actor, id, request.body);
      return reply.status(201).send({ offer, conversation_id: conversationId, message: OFFER_MESSAGES.sent });
    },
  });

  dentist.get("/api/dentist/offers", {
    summary:
      "Mes propositions, les plus récentes d'abord, par état (envoyée, acceptée, clôturée, expirée, retirée)",
    querystring: dentistOffersQuerySchema,
    response: { 200: dentistOfferListSchema, 400: errorBodySchema },
    handler: async (request, _reply, actor) => {
      const { state, page } = request.query;
      const { items, hasMore } = await dentistOffersRepo(app.db, actor).list(state, page, app.clock());
      return { items, page, page_size: DENTIST_OFFERS_PAGE_SIZE, has_more: hasMore };
    },
  });

  dentist.post("/api/dentist/offers/:id/withdraw", {
    summary: "Retirer une de mes propositions tant qu'elle n'est ni acceptée ni clôturée",
    params,
    response: { 200: offerWithdrawnSchema, 409: errorBodySchema },
    handler: async (request, _reply, actor) => {
      const id = pathId(request.params.id, OFFER_MESSAGES.notFound);
      const offer = await withdrawOffer(useCaseDeps(request), actor, id);
      return { offer, message: OFFER_MESSAGES.withdrawnDone };
    },
  });

  patient.post("/api/patient/offers/:id/accept", {
    summary:
      "Accepter une proposition : le dentiste est confirmé, les autres propositions clôturées, le rendez-vous reste à choisir",
    params,
    response: { 200: offerAcceptedSchema, 409: errorBodySchema },
    handler: async (request, _reply, actor) => {
      const id = pathId(request.params.id, OFFER_MESSAGES.notFound);
      const offer = await acceptOffer(useCaseDeps(request), actor, id);
      return { offer, message: OFFER_MESSAGES.accepted };
    },
  });

  patient.post("/api/patient/offers/:id/unaccept", {
    summary:
      "Retirer mon acceptation tant que le rendez-vous n'est pas confirmé : les autres propositions encore valables sont rouvertes",
    params,
    response: { 200: offerUnacceptedSchema, 409: errorBodySchema },
    handler: async (request, _reply, actor) => {
      const id = pathId(request.params.id, OFFER_MESSAGES.notFound);
      const { offer, reopened } = await unacceptOffer(useCaseDeps(request), actor, id);
      return { offer, reopened, message: OFFER_MESSAGES.unaccepted };
    },
  });

  patient.get("/api/patient/requests/:id/comparison", {
    tags: ["patient"],
    summary:
      "Les propositions d'une de mes demandes par reste à charge estimé (ma mutuelle), alignées dent par dent sur mon devis",
    params,
    response: { 200: comparisonSchema },
    preValidation: requireVisible("request", REQUEST_NOT_FOUND),
    handler: async (request, _reply, actor) => {
      const id = request.params.id;
      const [original, offers, cover] = await Promise.all([
        patientQuoteLines(app.db, actor, id),
        patientOffersRepo(app.db, actor).onRequest(id, app.clock()),
        patientCover(app.db, actor),
      ]);
      // Each offer's lines carry the tariffs of the day it was made; the devis's, those of its date.
      const dated = offers.map((offer) => ({ ...offer, tariff_day: parisToday(new Date(offer.created_at)) }));
      return compareQuotes(original.lines, dated, cover, original.quoteDate);
    },
  });
}
