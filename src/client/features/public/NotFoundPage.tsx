import { ArrowLeft } from "lucide-react";
import { Link, useLocation, useNavigate } from "react-router";
import { homePathFor } from "../../../shared/policies/redirects";
import { Button } from "../../components/ui/Button";
import { useSession } from "../../lib/session";
import { useDocumentTitle } from "../../lib/title";

/**
 * Any unknown path: « Page non trouvée », a way back and a link home (the server answers 404).
 * « Retour » goes back to the previous page of this site; opened first in its tab (a link from an
 * e-mail, a typed address), there is none: it leads to the person's home ('Mon espace'), or to /.
 */
export function NotFoundPage() {
  useDocumentTitle("Page non trouvée");
  const navigate = useNavigate();
  const location = useLocation();
  const { status, profile } = useSession();
  const back = () => {
    // The router's first entry of the tab has the key "default": nothing of ours before it.
    if (location.key !== "default") navigate(-1);
    else navigate(status === "signed-in" && profile ? homePathFor(profile, "login") : "/");
  };
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-20 text-center sm:px-6">
      <p className="text-5xl font-bold text-brand-700">404</p>
      <h1 className="mt-4 text-3xl font-bold tracking-tight text-slate-900">Page non trouvée</h1>
      <p className="mt-3 text-slate-700">
        La page que vous cherchez n'existe pas ou a été déplacée. Vérifiez l'adresse, ou revenez à la page
        précédente.
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Button variant="outline" onClick={back}>
          <ArrowLeft aria-hidden="true" />
          Retour
        </Button>
        <Button asChild>
          <Link to="/">Retour à l'accueil</Link>
        </Button>
      </div>
    </div>
  );
}
