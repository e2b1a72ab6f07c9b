import { type ReactNode, useId } from "react";
import { cn } from "../../lib/cn";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/Card";

/** A section of the account pages ('Sécurité', 'Mes données'): its h2, then its cards side by side from 1024 px. */
export function AccountSection({
  id,
  title,
  className,
  children,
}: {
  /** The section's anchor (a link to it from an e-mail). */
  id?: string;
  title: string;
  className?: string | undefined;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <section id={id} aria-labelledby={headingId} className={cn("grid scroll-mt-24 gap-4", className)}>
      <h2 id={headingId} className="text-xl font-semibold text-slate-900">
        {title}
      </h2>
      <div className="grid gap-6 lg:grid-cols-2">{children}</div>
    </section>
  );
}

/** A card of an account section: its h3 and what it is for, then its content. */
export function AccountCard({
  title,
  description,
  descriptionId,
  contentClassName,
  children,
}: {
  title: string;
  description: ReactNode;
  /** For a control outside the header that the description explains (aria-describedby). */
  descriptionId?: string;
  contentClassName?: string;
  children: ReactNode;
}) {
  return (
    <Card className="self-start">
      <CardHeader>
        <CardTitle as="h3">{title}</CardTitle>
        <CardDescription id={descriptionId}>{description}</CardDescription>
      </CardHeader>
      <CardContent className={contentClassName}>{children}</CardContent>
    </Card>
  );
}
