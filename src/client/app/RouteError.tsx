import { AlertTriangle } from "lucide-react";
import { Button } from "../components/ui/Button";

/** Shown when a page fails to load (for instance a chunk missing after a new deployment). */
export function RouteError({ error }: { error: unknown }) {
  if (typeof console !== "undefined") console.error(error);
  return (
    <main
      id="main"
      className="mx-auto flex min-h-dvh max-w-xl flex-col items-center justify-center gap-4 px-4 text-center"
    >
      <AlertTriangle className="size-10 text-accent-600" aria-hidden="true" />
      <h1 className="text-2xl font-bold text-slate-900">Une erreur est survenue</h1>
      <p className="text-slate-700">
        La page n'a pas pu être chargée. Vérifiez votre connexion internet puis rechargez la page.
      </p>
      <div className="flex flex-wrap justify-center gap-3">
        <Button onClick={() => window.location.reload()}>Recharger la page</Button>
        <Button asChild variant="outline">
          <a href="/">Retour à l'accueil</a>
        </Button>
      </div>
    </main>
  );
}
