import { FileText, Film, ImageIcon, X } from "lucide-react";
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
export function FileList({ files, onTypeChange, onRemove, progress, disabled = false }: FileListProps) {
  if (files.length === 0) return null;
  return (
    <ul className="grid gap-3" aria-label="Fichiers sélectionnés">
      {files.map(({ key, file, type }) => {
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
                  onClick={() => onRemove(key)}
                  disabled={disabled}
                  aria-label={`Retirer ${file.name}`}
                >
                  <X aria-hidden="true" />
                </Button>
              </div>
            </div>
            {percent !== undefined ? (
              <div className="flex items-center gap-3">
                <Progress value={percent} aria-label={`Envoi ${ofName(file.name)}`} />
                <span className="w-12 text-right text-sm text-slate-700 tabular-nums">{percent} %</span>
              </div>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
