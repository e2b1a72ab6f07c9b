/** The support chunk: the patient's 'Besoin d'aide ?' page (lazy-loaded by the router). */
export { PatientHelpPage } from "./HelpPage";
