import { REVIEW_LIMITS } from "./reviews";

/**
 * How long Sourio keeps what (issue 14). One list: the retention job (server) erases by these
 * periods and the privacy page (client) states them, so the page and the code cannot disagree.
 */
export const RETENTION = {
  /** An account nobody signed in to for this many years is erased… */
  inactiveAccountYears: 3,
  /** …after an e-mail warning sent this many days before. */
  inactivityWarningDays: 30,
  /** Contact-form messages and their files, counted from the team's answer (or their arrival). */
  contactMessageDays: 365,
  /** Documents of a cancelled request (the request itself stays in the patient's history). */
  cancelledRequestDocumentDays: 30,
  /**
   * Access history and audit log: the CNIL recommends keeping such logs six months to a year
   * (recommandation « journalisation », 2021); a year lets a patient question an access late.
   */
  logMonths: 12,
  /**
   * Sourio's invoices and credit notes to dentists (issue 35): 10 years (Code de commerce L123-22,
   * accounting records), kept through the account's erasure; never deleted by the retention job.
   */
  invoiceYears: 10,
  /** Reviews (issue 36): online this many years after the appointment, then deleted. */
  reviewYears: REVIEW_LIMITS.onlineYears,
  /** A refused review, counted from the refusal (time to contest it). */
  refusedReviewDays: REVIEW_LIMITS.refusedDays,
} as const;

/** The lines of the privacy page's "Durées de conservation", from the constants above. */
export function retentionLines(): string[] {
  const r = RETENTION;
  return [
    `Compte : tant qu'il est actif ; supprimé ${r.inactiveAccountYears} ans après votre dernière connexion, après un e-mail de prévenance ${r.inactivityWarningDays} jours avant.`,
    "Demandes, documents et messages : tant que votre compte existe, sauf si vous les supprimez avant ; effacés à la suppression du compte.",
    `Documents d'une demande annulée : ${r.cancelledRequestDocumentDays} jours après l'annulation.`,
    `Journal des accès à vos données et journal d'administration : ${r.logMonths} mois, durée recommandée par la CNIL pour ces journaux.`,
    `Avis sur un dentiste : en ligne ${r.reviewYears} ans après le rendez-vous, puis supprimés ; un avis refusé est supprimé ${r.refusedReviewDays} jours après le refus ; supprimés aussi avec votre compte, et à tout moment par vous.`,
    `Messages du formulaire de contact et leurs pièces jointes : ${r.contactMessageDays === 365 ? "un an" : `${r.contactMessageDays} jours`} après notre réponse.`,
    `Factures et avoirs d'abonnement des dentistes (avec le nom, l'adresse et le SIREN du cabinet) : ${r.invoiceYears} ans, comme la loi l'impose (article L123-22 du Code de commerce), y compris après la suppression du compte.`,
  ];
}

/** The dates before which each kind of data is due, at `now`. */
export function retentionCutoffs(now: Date) {
  const days = (n: number) => new Date(now.getTime() - n * 86_400_000);
  const months = (n: number) => {
    const d = new Date(now);
    d.setUTCMonth(d.getUTCMonth() - n);
    return d;
  };
  const years = (n: number) => {
    const d = new Date(now);
    d.setUTCFullYear(d.getUTCFullYear() - n);
    return d;
  };
  const inactiveErase = years(RETENTION.inactiveAccountYears);
  return {
    contact: days(RETENTION.contactMessageDays),
    cancelledDocuments: days(RETENTION.cancelledRequestDocumentDays),
    logs: months(RETENTION.logMonths),
    reviews: years(RETENTION.reviewYears),
    refusedReviews: days(RETENTION.refusedReviewDays),
    inactiveErase,
    inactiveWarn: new Date(inactiveErase.getTime() + RETENTION.inactivityWarningDays * 86_400_000),
  };
}
