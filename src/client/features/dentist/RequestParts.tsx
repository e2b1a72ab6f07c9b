import { ArrowLeft, FileSearch } from "lucide-react";
import type { ReactNode } from "react";
import { Link, useNavigate } from "react-router";
import { DENTIST_MESSAGES } from "../../../shared/schemas/dentist";
import { Button } from "../../components/ui/Button";
import { EmptyState } from "../../components/ui/EmptyState";
import { useDocumentTitle } from "../../lib/title";

/** Pieces shared by the dentist's request pages (patient submission, proposal). */

/** 'Retour': back in history, else to the list of requests. */
export function BackButton() {
  const navigate = useNavigate();
  return (
    <Button
      variant="ghost"
      className="mb-4 -ml-2"
      onClick={() => (window.history.length > 1 ? navigate(-1) : navigate("/dentist/quote-requests"))}
    >
      <ArrowLeft aria-hidden="true" />
      Retour
    </Button>
  );
}

/** One term of a details list (`<dl>`); `wide` spans both columns. */
export function Detail({ label, children, wide }: { label: string; children: ReactNode; wide?: boolean }) {
  return (
    <div className={wide ? "grid gap-0.5 sm:col-span-2" : "grid gap-0.5"}>
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className="min-w-0 break-words text-slate-900">{children}</dd>
    </div>
  );
}

/** 'Impossible de trouver cette demande.' with a way back to the requests. */
export function RequestNotFound() {
  useDocumentTitle("Demande non trouvée");
  return (
    <>
      <h1 className="mb-6 text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
        Demande non trouvée
      </h1>
      <EmptyState
        icon={FileSearch}
        title="Cette demande est introuvable"
        description={DENTIST_MESSAGES.notFound}
        action={
          <Button asChild>
            <Link to="/dentist/quote-requests">Retour aux demandes</Link>
          </Button>
        }
      />
    </>
  );
}
