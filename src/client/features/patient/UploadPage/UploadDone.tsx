import { CheckCircle2 } from "lucide-react";
import { useEffect, useRef } from "react";
import { Link, useNavigate } from "react-router";
import { PageHeader } from "../../../components/PageHeader";
import { Button } from "../../../components/ui/Button";

/** The dashboard after a successful upload, this many milliseconds later. */
export const REDIRECT_AFTER_UPLOAD_MS = 3000;

/** The request is sent: said (the focus comes here), then the dashboard 3 s later. */
export function UploadDone() {
  const navigate = useNavigate();
  const successRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    successRef.current?.focus();
    const timer = setTimeout(() => navigate("/patient/dashboard"), REDIRECT_AFTER_UPLOAD_MS);
    return () => clearTimeout(timer);
  }, [navigate]);

  return (
    <>
      <PageHeader title="Téléverser des documents" />
      <div
        ref={successRef}
        tabIndex={-1}
        role="status"
        className="grid gap-4 rounded-ui border border-green-300 bg-green-50 p-6 text-green-900 outline-none"
      >
        <div className="flex items-start gap-3">
          <CheckCircle2 className="mt-0.5 size-6 shrink-0 text-green-700" aria-hidden="true" />
          <div className="grid gap-1">
            <h2 className="text-lg font-semibold">Documents téléversés avec succès !</h2>
            <p>
              Votre demande a été envoyée. Un e-mail vous préviendra de chaque réponse. Vous allez être
              redirigé vers votre tableau de bord dans quelques secondes.
            </p>
          </div>
        </div>
        <div className="flex flex-col gap-3 sm:flex-row">
          <Button asChild>
            <Link to="/patient/dashboard">Aller au tableau de bord</Link>
          </Button>
          <Button asChild variant="outline">
            <Link to="/patient/requests">Voir toutes mes demandes</Link>
          </Button>
        </div>
      </div>
    </>
  );
}
