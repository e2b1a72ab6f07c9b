import type { ReactNode } from "react";
import { Link } from "react-router";
import { Alert } from "../../components/ui/Alert";
import { Button } from "../../components/ui/Button";
import { Card } from "../../components/ui/Card";
import { useDocumentTitle } from "../../lib/title";

interface AuthCardProps {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  wide?: boolean;
}

/**
 * Centred card of the auth pages; its title is the page's h1 and document title. Its grey background
 * is as tall as the layout's main (a screen at least, min-h-dvh): down to the footer, without a
 * white strip under a short card.
 */
export function AuthCard({ title, description, children, footer, wide }: AuthCardProps) {
  useDocumentTitle(title);
  return (
    <div className="min-h-dvh bg-slate-50 px-4 py-10 sm:py-16">
      <Card className={wide ? "mx-auto max-w-2xl" : "mx-auto max-w-md"}>
        <div className="grid gap-2 p-6 pb-2 sm:p-8 sm:pb-2">
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
          {description ? <p className="text-slate-600">{description}</p> : null}
        </div>
        <div className="p-6 pt-4 sm:p-8 sm:pt-4">{children}</div>
        {footer ? (
          <div className="grid gap-2 border-t border-slate-200 px-6 py-5 text-sm text-slate-700 sm:px-8">
            {footer}
          </div>
        ) : null}
      </Card>
    </div>
  );
}

/**
 * What a link's page ends on (a password set, an address confirmed, a link refused): the message,
 * then the one way on. A success leads on in the main style, a refusal in the outline one.
 */
export function AuthOutcome({
  success,
  title,
  message,
  to,
  label,
}: {
  success: boolean;
  title: string;
  message: string;
  to: string;
  label: string;
}) {
  return (
    <div className="grid gap-5">
      <Alert variant={success ? "success" : "destructive"} title={title}>
        {message}
      </Alert>
      <Button asChild variant={success ? "primary" : "outline"} size="lg">
        <Link to={to}>{label}</Link>
      </Button>
    </div>
  );
}

export const linkClass = "font-medium text-brand-800 underline underline-offset-2 hover:text-brand-900";

/** A line under an auth form: an optional question, then the link that answers it. */
export function AuthFooterLink({ question, to, label }: { question?: string; to: string; label: string }) {
  return (
    <p>
      {question ? `${question} ` : null}
      <Link to={to} className={linkClass}>
        {label}
      </Link>
    </p>
  );
}
