import type { ReactNode } from "react";
import { useDocumentTitle } from "../lib/title";

interface PageHeaderProps {
  /** The page's one h1; also the first part of document.title unless `documentTitle` is given. */
  title: string;
  documentTitle?: string;
  description?: ReactNode;
  actions?: ReactNode;
}

/** Title block of an authenticated page. */
export function PageHeader({ title, documentTitle, description, actions }: PageHeaderProps) {
  useDocumentTitle(documentTitle ?? title);
  return (
    <div className="mb-6 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
      <div className="grid min-w-0 gap-1 wrap-anywhere">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{title}</h1>
        {description ? <p className="text-slate-600">{description}</p> : null}
      </div>
      {actions ? <div className="flex flex-wrap gap-3">{actions}</div> : null}
    </div>
  );
}
