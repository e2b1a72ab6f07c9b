/**
 * Where 'Déposer mon devis' leads (issue 16): the patient sign-up, carrying the intent; a visitor
 * with an account follows 'Se connecter' from there (the intent goes along), a signed-in patient
 * is sent on to the upload form at once. A module of its own: the public pages, the header and
 * the mobile menu need this path, not the list of routes.
 */
export const UPLOAD_INTENT_PATH = "/signup?next=%2Fpatient%2Fupload";
