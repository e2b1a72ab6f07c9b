/** The support chunk: the patients' and dentists' 'Besoin d'aide ?' page (lazy-loaded by the router). */
export { HelpPage } from "./HelpPage";
