import { ScanText } from "lucide-react";
import { useRef } from "react";
import { ACCEPT_ATTRIBUTE, FILE_RECOMMENDATION } from "../../../../shared/domain/files";
import type { DocumentType } from "../../../../shared/domain/requests";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../components/ui/Card";
import { FileDrop } from "../../../components/ui/FileDrop";
import type { ChosenFile } from "../chosenFiles";
import { FileList } from "../FileList";
import { READABLE_TYPES, READING_UPLOAD_HINT } from "../reading/readLines";

/** 'Vos documents': the drop zone, the refusals, the files chosen with their type and progress. */
export function DocumentsCard({
  files,
  error,
  fileNotices,
  errorId,
  progress,
  sending,
  withLines,
  onFiles,
  onTypeChange,
  onRemove,
}: {
  files: ChosenFile[];
  error: string | undefined;
  fileNotices: string[];
  errorId: string;
  progress: Record<string, number> | undefined;
  sending: boolean;
  /** The devis is typed line by line: it is not read on the server. */
  withLines: boolean;
  onFiles: (incoming: File[]) => void;
  onTypeChange: (key: string, type: DocumentType) => void;
  onRemove: (key: string) => void;
}) {
  // The last file removed: the focus goes back to the file picker.
  const zone = useRef<HTMLDivElement>(null);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Vos documents</CardTitle>
        <CardDescription>
          Le devis de votre dentiste, vos radiographies, vos photos. Précisez le type de chaque fichier.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div ref={zone}>
          <FileDrop
            label="Choisir des fichiers"
            description={FILE_RECOMMENDATION}
            accept={ACCEPT_ATTRIBUTE}
            multiple
            disabled={sending}
            invalid={Boolean(error)}
            errorId={error || fileNotices.length > 0 ? errorId : undefined}
            onFiles={onFiles}
          />
        </div>
        {error || fileNotices.length > 0 ? (
          <div id={errorId} className="grid gap-1 text-sm font-medium text-red-700">
            {error ? <p>{error}</p> : null}
            {fileNotices.map((notice) => (
              <p key={notice}>{notice}</p>
            ))}
          </div>
        ) : null}
        <FileList
          files={files}
          onTypeChange={onTypeChange}
          onRemove={onRemove}
          onEmptied={() => zone.current?.querySelector("input")?.focus()}
          progress={progress}
          disabled={sending}
        />
        {files.some((f) => f.type === "quote" && READABLE_TYPES.includes(f.file.type)) && !withLines ? (
          // Issue 17: a devis sent without its lines is read on our server, then checked by the patient.
          <p className="flex items-start gap-2 text-sm text-slate-700">
            <ScanText className="mt-0.5 size-4 shrink-0 text-brand-700" aria-hidden="true" />
            {READING_UPLOAD_HINT}
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}
