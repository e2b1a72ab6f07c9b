import { FileText, Film, ImageIcon, X } from "lucide-react";
import { useRef } from "react";
import { DOCUMENT_TYPE_LABELS, DOCUMENT_TYPES, type DocumentType } from "../../../shared/domain/requests";
import { ofName } from "../../../shared/format/names";
import { formatFileSize } from "../../../shared/format/size";
import { OptionSelect } from "../../components/OptionSelect";
import { Button } from "../../components/ui/Button";
import { Progress } from "../../components/ui/Progress";
import type { ChosenFile } from "./chosenFiles";

interface FileListProps {
  files: ChosenFile[];
  onTypeChange: (key: string, type: DocumentType) => void;
  onRemove: (key: string) => void;
  /** Where the focus goes when the last file is removed (the file picker). */
  onEmptied?: () => void;
  /** Per-file upload progress (0–100) while sending, by key. */
  progress?: Record<string, number>;
  disabled?: boolean;
}

function iconOf(file: File) {
  if (file.type.startsWith("image/")) return ImageIcon;
  if (file.type.startsWith("video/")) return Film;
  return FileText;
}

/** The files chosen for an upload: name, size in Mo, document type select, remove, progress. */
export function FileList({
  files,
  onTypeChange,
  onRemove,
  onEmptied,
  progress,
  disabled = false,
}: FileListProps) {
  const list = useRef<HTMLUListElement>(null);
  if (files.length === 0) return null;
  // The focus goes to the next file's « Retirer » (or the previous one's), not to the body.
  const remove = (index: number, key: string) => {
    const buttons = list.current?.querySelectorAll<HTMLButtonElement>("[data-remove-file]");
    const neighbour = buttons?.[index + 1] ?? buttons?.[index - 1];
    onRemove(key);
    if (neighbour) neighbour.focus();
    else onEmptied?.();
  };
  return (
    <ul ref={list} className="grid gap-3" aria-label="Fichiers sélectionnés">
      {files.map(({ key, file, type }, index) => {
        const Icon = iconOf(file);
        const percent = progress?.[key];
        return (
          <li key={key} className="grid gap-3 rounded-ui border border-slate-200 bg-white p-3 sm:p-4">
            <div className="flex flex-wrap items-center gap-3">
              <Icon className="size-6 shrink-0 text-brand-700" aria-hidden="true" />
              <div className="min-w-0 flex-1">
                <p className="break-all font-medium text-slate-900">{file.name}</p>
                <p className="text-sm text-slate-600 tabular-nums">{formatFileSize(file.size)}</p>
              </div>
              <div className="flex w-full items-center gap-2 sm:w-auto">
                <OptionSelect
                  className="sm:w-44"
                  aria-label={`Type de document pour ${file.name}`}
                  value={type}
                  options={DOCUMENT_TYPES}
                  labelOf={(value) => DOCUMENT_TYPE_LABELS[value]}
                  onValueChange={(value) => onTypeChange(key, value)}
                  disabled={disabled}
                />
                <Button
                  variant="ghost"
                  size="icon"
                  onClick={() => remove(index, key)}
                  disabled={disabled}
                  data-remove-file=""
                  aria-label={`Retirer ${file.name}`}
                >
                  <X aria-hidden="true" />
                </Button>
              </div>
            </div>
            {percent !== undefined ? (
              <div className="flex items-center gap-3">
                <Progress value={percent} aria-label={`Envoi ${ofName(file.name)}`} />
                <span className="w-12 text-right text-sm text-slate-700 tabular-nums">{percent} %</span>
              </div>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
