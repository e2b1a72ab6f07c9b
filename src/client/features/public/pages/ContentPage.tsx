import { FileUp } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { Button } from "../../../components/ui/Button";
import { usePageMeta } from "../../../lib/title";

export const linkClass = "font-medium text-brand-800 underline underline-offset-2";

/** A public text page: one h1, a short introduction, then sections; sets the page's SEO tags. */
export function ContentPage({
  title,
  description,
  intro,
  children,
  wide = false,
}: {
  title: string;
  description: string;
  intro?: ReactNode;
  children: ReactNode;
  wide?: boolean;
}) {
  usePageMeta({ title, description });
  return (
    <article className={`mx-auto px-4 py-12 sm:px-6 sm:py-16 ${wide ? "max-w-5xl" : "max-w-3xl"}`}>
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{title}</h1>
      {intro ? <p className="mt-4 max-w-3xl text-lg text-slate-700">{intro}</p> : null}
      <div className="mt-8 grid gap-8 text-slate-700 [&_h2]:text-xl [&_h2]:font-semibold [&_h2]:text-slate-900 [&_h3]:font-semibold [&_h3]:text-slate-900">
        {children}
      </div>
    </article>
  );
}

export function Section({ title, children, id }: { title: string; children: ReactNode; id?: string }) {
  return (
    <section id={id} className="grid gap-3">
      <h2>{title}</h2>
      {children}
    </section>
  );
}

export function UploadCta() {
  return (
    <div className="flex flex-wrap gap-3">
      <Button asChild variant="accent" size="lg">
        <Link to="/patient/upload">
          <FileUp aria-hidden="true" />
          Déposer votre devis
        </Link>
      </Button>
    </div>
  );
}
