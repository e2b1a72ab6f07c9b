import { Alert } from "./Alert";
import { Button } from "./Button";

/** A failed load: what could not be loaded, what to do, and a 'Réessayer' button. */
export function LoadError({
  title,
  message = "Veuillez réessayer dans quelques instants.",
  onRetry,
  className,
}: {
  title: string;
  message?: string;
  onRetry: () => void;
  className?: string;
}) {
  return (
    <Alert variant="destructive" title={title} className={className}>
      <p>{message}</p>
      <Button variant="outline" size="sm" className="mt-3" onClick={onRetry}>
        Réessayer
      </Button>
    </Alert>
  );
}
