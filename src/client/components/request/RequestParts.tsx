import { ArrowLeft, FileSearch, type LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Link, useNavigate } from "react-router";
import { cn } from "../../lib/cn";
import { leaveThen } from "../../lib/leaveWarning";
import { useDocumentTitle } from "../../lib/title";
import { Button } from "../ui/Button";
import { Card, CardContent, CardHeader, CardTitle } from "../ui/Card";
import { EmptyState } from "../ui/EmptyState";

/** Pieces of a request's detail page, for patients and dentists alike. */

/** One term of a details list (`<dl>`); `wide` spans both columns. */
export function Detail({
  label,
  children,
  wide,
  multiline,
}: {
  label: string;
  children: ReactNode;
  wide?: boolean;
  /** A person's own text: its line breaks are kept. */
  multiline?: boolean;
}) {
  return (
    <div className={wide ? "grid gap-0.5 sm:col-span-2" : "grid gap-0.5"}>
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className={cn("min-w-0 wrap-anywhere text-slate-900", multiline && "whitespace-pre-line")}>
        {children}
      </dd>
    </div>
  );
}

/**
 * A page's subject the server answers 404 for: its heading (the document's title too), an empty
 * state and a way back — rather than a 'Réessayer' that cannot help.
 */
export function NotFoundState({
  heading,
  title,
  icon = FileSearch,
  description,
  backTo,
  backLabel,
}: {
  heading: string;
  title: string;
  icon?: LucideIcon;
  description: string;
  backTo: string;
  backLabel: string;
}) {
  useDocumentTitle(heading);
  return (
    <>
      <h1 className="mb-6 text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{heading}</h1>
      <EmptyState
        icon={icon}
        title={title}
        description={description}
        action={
          <Button asChild>
            <Link to={backTo}>{backLabel}</Link>
          </Button>
        }
      />
    </>
  );
}

/** 'Demande non trouvée', with a way back to where the asker's requests are. */
export function RequestNotFound(props: { description: string; backTo: string; backLabel: string }) {
  return <NotFoundState heading="Demande non trouvée" title="Cette demande est introuvable" {...props} />;
}

/**
 * 'Retour': back in history, else to `fallback` (the asker's list of requests); a form being written
 * on the page asks first (leaveThen).
 */
export function BackButton({ fallback }: { fallback: string }) {
  const navigate = useNavigate();
  return (
    <Button
      variant="ghost"
      className="mb-4 -ml-2"
      onClick={() => leaveThen(() => (window.history.length > 1 ? navigate(-1) : navigate(fallback)))}
    >
      <ArrowLeft aria-hidden="true" />
      Retour
    </Button>
  );
}

/** A card of details: its title, then a details list (`<dl>`) of `Detail`s. */
export function DetailsCard({
  title,
  className,
  listClassName = "grid gap-4",
  children,
}: {
  title: string;
  className?: string;
  listClassName?: string;
  children: ReactNode;
}) {
  return (
    <Card className={className}>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className={listClassName}>{children}</dl>
      </CardContent>
    </Card>
  );
}
