import { journeyOf } from "../../shared/domain/journey";
import type { QuoteLineDto } from "../../shared/schemas/quotes";
import type { RequestDetail } from "../../shared/schemas/requests";

/** A patient's request as GET /api/patient/requests/:id returns it: open, no document, no offer yet. */
export function makeRequestDetail(id: string, overrides: Partial<RequestDetail> = {}): RequestDetail {
  // The journey as the server derives it, from the status and the open offers (ADR 016).
  const status = overrides.status ?? "in_review";
  const open = (overrides.offers ?? []).filter((offer) => offer.state === "sent").length;
  const journey = journeyOf({ id, status, open_offers: open, appointment: null }, new Date());
  return {
    journey,
    id,
    treatment_type: "crown",
    status: "in_review",
    urgency: "medium",
    created_at: "2026-11-21T10:00:00.000Z",
    document_count: 0,
    description: "",
    budget: "",
    quote_amount_cents: null,
    quote_lines: [],
    quote_date: null,
    recipient: null,
    updated_at: "2026-11-21T10:00:00.000Z",
    documents: [],
    access_log: [],
    access_log_has_more: false,
    consent: {
      version: "2026-11-25",
      text: "J'accepte que mes documents soient consultés par les dentistes vérifiés de Sourio pour étudier ma demande.",
      given_at: "2026-11-21T10:00:00.000Z",
      withdrawn_at: null,
    },
    replies: [],
    offers: [],
    ...overrides,
  };
}

/** A line of an offer written as free text (no CCAM code): 'libre', no BR, no ceiling. */
export function freeLine(act: string, tooth: number | null, feeCents: number): QuoteLineDto {
  return { code: null, basket: "libre", br_cents: 0, ceiling_cents: null, act, tooth, fee_cents: feeCents };
}
