import type { Cover, QuoteLineDto } from "../../../shared/schemas/quotes";
import type { Actor } from "../../access/actor";
import type { Db } from "../../db/index";
import { dentistQuotesRepo, patientQuotesRepo } from "./quotes.repo";

/**
 * What other modules read of the structured quotes: the routes of offers, dentists and the request
 * detail come here rather than to the repo of a module not theirs (ADR 029). Bound to the actor as
 * the repo is.
 */

/** The lines of one of the patient's own requests (none for anyone else's), with the devis's date. */
export function patientQuoteLines(
  db: Db,
  actor: Actor,
  requestId: string,
): Promise<{ lines: QuoteLineDto[]; quoteDate: string | null }> {
  return patientQuotesRepo(db, actor).lines(requestId);
}

/** The patient's mutuelle, or null. */
export function patientCover(db: Db, actor: Actor): Promise<Cover | null> {
  return patientQuotesRepo(db, actor).cover();
}

/** The patient's original quote on a request this dentist may see (none otherwise). */
export function dentistQuoteLines(db: Db, actor: Actor, requestId: string): Promise<QuoteLineDto[]> {
  return dentistQuotesRepo(db, actor).lines(requestId);
}
