import { type FormEvent, useId, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import type { DocumentType } from "../../../../shared/domain/requests";
import {
  EMPTY_UPLOAD,
  type UploadFieldErrors,
  type UploadFieldName,
  type UploadValues,
  uploadErrorsFromApi,
  validateUpload,
} from "../../../../shared/forms/uploadForm";
import { parisToday } from "../../../../shared/policies/offers";
import { UPLOAD_MESSAGES } from "../../../../shared/schemas/requests";
import { PageHeader } from "../../../components/PageHeader";
import {
  type DraftLine,
  draftsTotal,
  firstLineError,
  type LineErrors,
  lineErrorsFromFields,
  validateLines,
} from "../../../components/quote/quoteLines";
import { Button } from "../../../components/ui/Button";
import { ConfirmDialog } from "../../../components/ui/Dialog";
import { isApiError } from "../../../lib/api";
import { wrongContentOf } from "../../../lib/fileContent";
import { useLeaveWarning } from "../../../lib/leaveWarning";
import { newSubmissionId, useCreateRequest } from "../api";
import { addFiles, type ChosenFile } from "../chosenFiles";
import { quoteDateError, tariffDayOf } from "../QuoteDateField";
import { QuoteLinesCard } from "../QuoteLinesCard";
import { DocumentsCard } from "./DocumentsCard";
import { RecipientCard } from "./RecipientCard";
import { type SetUploadField, TreatmentCard } from "./TreatmentCard";
import { UploadDone } from "./UploadDone";

export { REDIRECT_AFTER_UPLOAD_MS } from "./UploadDone";

/** « Annuler », or a link followed, while a request is being written. */
const ABANDON = {
  title: "Abandonner cette demande ?",
  description: "Les fichiers choisis et ce que vous avez saisi ne seront ni envoyés ni gardés.",
  confirmLabel: "Abandonner la demande",
  cancelLabel: "Continuer ma demande",
};

/**
 * /patient/upload 'Téléverser des documents': the documents with their type, the treatment, the
 * devis line by line (optional; with its date, which chooses its tariffs: issue 33), the recipient —
 * every verified dentist or one of them — and the consent. The browser checks what it can
 * (shared/forms/uploadForm.ts), the server everything.
 */
export function PatientUploadPage() {
  const navigate = useNavigate();
  const [values, setValues] = useState<UploadValues>(EMPTY_UPLOAD);
  const [files, setFiles] = useState<ChosenFile[]>([]);
  const filesNow = useRef(files);
  filesNow.current = files;
  const [fileNotices, setFileNotices] = useState<string[]>([]);
  const [errors, setErrors] = useState<UploadFieldErrors>({});
  const [progress, setProgress] = useState<Record<string, number> | undefined>(undefined);
  const [done, setDone] = useState(false);
  // The devis line by line (issue 15), optional.
  const [lines, setLines] = useState<DraftLine[]>([]);
  const [lineErrors, setLineErrors] = useState<LineErrors>({});
  const [linesSubmitted, setLinesSubmitted] = useState(false);
  // The devis's date (issue 33), asked with its lines: it chooses their tariffs.
  const [quoteDate, setQuoteDate] = useState(() => parisToday(new Date()));
  const [dateError, setDateError] = useState<string | undefined>(undefined);
  const today = parisToday(new Date());
  const day = tariffDayOf(quoteDate, today);
  const create = useCreateRequest();
  // One id for this request, sent again on every retry: a sending whose answer was lost (the request
  // saved, the connection gone) is not saved a second time (ADR 101).
  const [submissionId] = useState(newSubmissionId);
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  // Something chosen or typed: « Annuler » asks before throwing it away.
  const started =
    files.length > 0 || lines.length > 0 || JSON.stringify(values) !== JSON.stringify(EMPTY_UPLOAD);
  const leave = () => navigate("/patient/dashboard");
  // Reloading, closing the tab or following a link asks too, until the request is sent.
  const leaveWarning = useLeaveWarning(started && !done, ABANDON);
  const fileErrorId = `${useId()}-files-error`;

  const set: SetUploadField = (field, value) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field as UploadFieldName]) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const onFiles = async (incoming: File[]) => {
    const wrong = await wrongContentOf(incoming);
    // The list as it is now (a removal meanwhile), not as it was when the files were chosen.
    const result = addFiles(filesNow.current, incoming, wrong);
    filesNow.current = result.files;
    setFiles(result.files);
    setFileNotices(result.errors);
    for (const message of result.errors) toast.error(message);
    if (result.added > 0) {
      toast.success(UPLOAD_MESSAGES.filesAdded(result.added));
      setErrors((current) => ({ ...current, files: undefined }));
    }
  };

  const onTypeChange = (key: string, type: DocumentType) =>
    setFiles((current) => current.map((f) => (f.key === key ? { ...f, type } : f)));
  const onRemove = (key: string) => setFiles((current) => current.filter((f) => f.key !== key));

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (create.isPending) return;
    const withLines = lines.length > 0;
    const found = validateUpload(values, files, withLines);
    const checkedLines = withLines ? validateLines(lines, "patient", day) : { ok: true as const, lines: [] };
    const wrongDate = withLines ? (quoteDateError(quoteDate, today) ?? undefined) : undefined;
    setErrors(found);
    setLinesSubmitted(withLines);
    setLineErrors(checkedLines.ok ? {} : checkedLines.errors);
    setDateError(wrongDate);
    const first =
      Object.values(found)[0] ??
      wrongDate ??
      (checkedLines.ok ? undefined : firstLineError(checkedLines.errors));
    // Take the keyboard (and the page) to the first field to correct, once the errors are rendered.
    const formElement = event.currentTarget;
    const focusFirstError = () =>
      setTimeout(() => formElement.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);
    if (first) {
      toast.error(first);
      focusFirstError();
      return;
    }
    const sent = files;
    setProgress(Object.fromEntries(sent.map((f) => [f.key, 0])));
    create.mutate(
      {
        input: {
          treatment_type: values.treatment_type,
          description: values.description,
          budget: values.budget,
          quote_amount: withLines ? "" : values.quote_amount,
          quote_lines: checkedLines.ok ? checkedLines.lines : [],
          quote_date: withLines ? quoteDate : undefined,
          urgency: values.urgency,
          recipient: values.recipient,
          files: sent.map(({ file, type }) => ({ file, type })),
          submission_id: submissionId,
        },
        onProgress: (perFile) =>
          setProgress(Object.fromEntries(sent.map((f, index) => [f.key, perFile[index] ?? 0]))),
      },
      {
        onSuccess: () => {
          toast.success(UPLOAD_MESSAGES.success, {
            description: "Un e-mail vous préviendra de chaque réponse des dentistes.",
          });
          setDone(true);
        },
        onError: (error) => {
          setProgress(undefined);
          const message = isApiError(error) ? error.message : "Veuillez réessayer dans quelques instants.";
          toast.error(UPLOAD_MESSAGES.failure, { description: message });
          if (isApiError(error)) {
            setLineErrors(lineErrorsFromFields(error.fields, "quote_lines"));
            // The devis's date has its own field (uploadErrorsFromApi leaves it to it).
            setDateError(error.fields.quote_date);
            setErrors(uploadErrorsFromApi(error));
            // A file the server refused is named under the files, at the top of a long form: the
            // page goes there, not only a toast at its bottom.
            focusFirstError();
          }
        },
      },
    );
  };

  if (done) return <UploadDone />;

  const sending = create.isPending;
  return (
    <>
      <PageHeader
        title="Téléverser des documents"
        description="Déposez le devis de votre dentiste avec vos radiographies ou photos : des dentistes vérifiés l'étudient et vous proposent une offre."
      />
      <form onSubmit={onSubmit} noValidate aria-label="Nouvelle demande de devis" className="grid gap-6">
        <DocumentsCard
          files={files}
          error={errors.files}
          fileNotices={fileNotices}
          errorId={fileErrorId}
          progress={progress}
          sending={sending}
          withLines={lines.length > 0}
          onFiles={onFiles}
          onTypeChange={onTypeChange}
          onRemove={onRemove}
        />
        <TreatmentCard
          values={values}
          set={set}
          errors={errors}
          sending={sending}
          linesTotal={lines.length > 0 ? draftsTotal(lines) : null}
        />
        <QuoteLinesCard
          value={lines}
          onChange={setLines}
          date={{
            value: quoteDate,
            onChange: (value) => {
              setQuoteDate(value);
              setDateError(undefined);
            },
            error: dateError,
          }}
          day={day}
          errors={lineErrors}
          showIncomplete={linesSubmitted}
          disabled={sending}
        />
        <RecipientCard values={values} set={set} errors={errors} sending={sending} />
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button
            variant="outline"
            size="lg"
            onClick={() => (started ? setConfirmingCancel(true) : leave())}
            disabled={sending}
          >
            Annuler
          </Button>
          <Button type="submit" size="lg" disabled={sending} className="sm:min-w-60">
            {sending ? "Traitement en cours..." : "Envoyer ma demande"}
          </Button>
        </div>
      </form>
      <ConfirmDialog
        open={confirmingCancel}
        onOpenChange={setConfirmingCancel}
        {...ABANDON}
        destructive
        onConfirm={leave}
      />
      {leaveWarning}
    </>
  );
}
