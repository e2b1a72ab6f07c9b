import { ChevronLeft, ChevronRight, ImageOff, ZoomIn } from "lucide-react";
import { useState } from "react";
import { Button } from "../../../components/ui/Button";
import { readingPageUrl } from "../api";

/**
 * The devis as read, page by page, beside its lines (issue 17): the server's preview of each page
 * (PNG), a page switcher when there are several, and a link opening the page at full size.
 */
export function PagePreview({
  requestId,
  readingId,
  pages,
  fileName,
}: {
  requestId: string;
  readingId: string;
  pages: number;
  fileName: string;
}) {
  const [page, setPage] = useState(1);
  const [broken, setBroken] = useState<ReadonlySet<number>>(new Set());
  const src = readingPageUrl(requestId, readingId, page);
  const several = pages > 1;

  return (
    <figure className="grid min-w-0 content-start gap-2">
      <div className="overflow-hidden rounded-ui border border-slate-200 bg-slate-50">
        {broken.has(page) ? (
          <p className="flex items-center gap-2 p-4 text-sm text-slate-700">
            <ImageOff className="size-5 shrink-0 text-slate-600" aria-hidden="true" />
            L'aperçu de cette page n'a pas pu être affiché : ouvrez votre document pour le consulter.
          </p>
        ) : (
          <img
            key={src}
            src={src}
            alt={`Page ${page}${several ? ` sur ${pages}` : ""} de votre devis ${fileName}`}
            className="mx-auto block h-auto max-h-[36rem] w-full object-contain"
            onError={() => setBroken(new Set([...broken, page]))}
          />
        )}
      </div>
      <figcaption className="flex flex-wrap items-center justify-between gap-2 text-sm text-slate-700">
        {several ? (
          <span className="flex flex-wrap items-center gap-2">
            <Button
              variant="outline"
              size="sm"
              onClick={() => setPage(page - 1)}
              disabled={page <= 1}
              aria-label="Page précédente"
            >
              <ChevronLeft aria-hidden="true" />
            </Button>
            <span aria-live="polite" className="tabular-nums">
              Page {page} sur {pages}
            </span>
            <Button
              variant="outline"
              size="sm"
              onClick={() => setPage(page + 1)}
              disabled={page >= pages}
              aria-label="Page suivante"
            >
              <ChevronRight aria-hidden="true" />
            </Button>
          </span>
        ) : (
          <span className="min-w-0 break-all">{fileName}</span>
        )}
        <a
          href={src}
          target="_blank"
          rel="noreferrer"
          className="inline-flex items-center gap-1 rounded-sm font-medium text-brand-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
        >
          <ZoomIn className="size-4" aria-hidden="true" />
          Agrandir la page {page}
          <span className="sr-only"> (nouvel onglet)</span>
        </a>
      </figcaption>
    </figure>
  );
}
