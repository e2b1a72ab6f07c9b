import { useParams, useSearchParams } from "react-router";
import { MessagesScreen } from "./MessagesScreen";

/** The Messages pages of both areas (re-exported by the patient and dentist chunks). */

const withSearch = (path: string, search: string, first = "?") =>
  search ? `${path}${first}q=${encodeURIComponent(search)}` : path;

/** /patient/messages, the open conversation in `?c=<id>`. */
export function PatientMessagesPage() {
  const [params] = useSearchParams();
  return (
    <MessagesScreen
      area="patient"
      selectedId={params.get("c") || null}
      pathOf={(id, search) => withSearch(`/patient/messages?c=${encodeURIComponent(id)}`, search, "&")}
      listPath={(search) => withSearch("/patient/messages", search)}
    />
  );
}

const dentistPath = (id: string, search: string) =>
  withSearch(`/dentist/messages/${encodeURIComponent(id)}`, search);
const dentistList = (search: string) => withSearch("/dentist/messages", search);

/**
 * /dentist/messages and /dentist/messages/{id} (linked from the dashboard): one page for both
 * routes, so opening a conversation keeps the list as it is.
 */
export function DentistMessagesPage() {
  const { id } = useParams();
  return (
    <MessagesScreen area="dentist" selectedId={id || null} pathOf={dentistPath} listPath={dentistList} />
  );
}
