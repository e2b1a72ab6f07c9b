import { X } from "lucide-react";
import type { ReactNode } from "react";
import { formatFileSize } from "../../../shared/format/size";
import { cn } from "../../lib/cn";

/**
 * A file chosen for a message, before it is sent: what it looks like (an icon or a thumbnail), its
 * name and size, and a button that takes it off. An item of a list (`li`) or a lone chip (`div`).
 */
export function FileChip({
  file,
  leading,
  onRemove,
  as: Tag = "div",
  className,
}: {
  file: File;
  leading: ReactNode;
  onRemove: () => void;
  as?: "div" | "li";
  className?: string;
}) {
  return (
    <Tag
      className={cn(
        "flex max-w-full items-center rounded-full border border-slate-300 bg-slate-50 py-1 pr-1 text-sm text-slate-800",
        className,
      )}
    >
      {leading}
      <span className="max-w-48 truncate">{file.name}</span>
      <span className="shrink-0 text-xs text-slate-600">{formatFileSize(file.size)}</span>
      <button
        type="button"
        onClick={onRemove}
        aria-label={`Retirer ${file.name}`}
        className="flex size-7 shrink-0 items-center justify-center rounded-full text-slate-600 hover:bg-slate-200 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-700"
      >
        <X className="size-4" aria-hidden="true" />
      </button>
    </Tag>
  );
}
