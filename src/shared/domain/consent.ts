/**
 * The consent a patient gives when sending a request (issue 14): one text, versioned, shown on the
 * upload form and stored with the request as it was shown, so the request page can show it back.
 * A change of wording is a new version.
 */
import { ofName } from "../format/names";

export const CONSENT_VERSION = "2026-12-04";

/** What the consent said, for the dentists chosen: everyone verified, or one dentist by name. */
export function consentText(p: { brand: string; dentistName: string | null }): string {
  const who = p.dentistName
    ? `le dentiste choisi (Dr ${p.dentistName})`
    : `les dentistes vérifiés ${ofName(p.brand)}`;
  return `J'accepte que mes documents soient consultés par ${who} pour étudier ma demande, et par l'équipe ${p.brand} pour l'assistance. Chaque consultation est enregistrée et visible dans le détail de ma demande.`;
}

/** Requests sent before consents were recorded: the date is the request's, the text was not kept. */
export const LEGACY_CONSENT_VERSION = "avant-2026-11-25";
