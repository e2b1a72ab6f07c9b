import { CheckCircle2, ScanText } from "lucide-react";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { Link, useNavigate } from "react-router";
import { toast } from "sonner";
import { consentText } from "../../../shared/domain/consent";
import { ACCEPT_ATTRIBUTE, FILE_RECOMMENDATION } from "../../../shared/domain/files";
import { type DentistSort, formatDistance, GEO_MESSAGES } from "../../../shared/domain/geo";
import {
  DEFAULT_URGENCY,
  type DocumentType,
  URGENCIES,
  type Urgency,
  urgencyFormLabel,
} from "../../../shared/domain/requests";
import { TREATMENT_LABELS, TREATMENT_TYPES, type TreatmentType } from "../../../shared/domain/treatments";
import { parseEuros } from "../../../shared/format/money";
import { parisToday } from "../../../shared/policies/offers";
import { UPLOAD_MESSAGES } from "../../../shared/schemas/requests";
import { PageHeader } from "../../components/PageHeader";
import {
  centsToInput,
  type DraftLine,
  draftsTotal,
  firstLineError,
  type LineErrors,
  lineErrorsFromFields,
  validateLines,
} from "../../components/quote/quoteLines";
import { Button } from "../../components/ui/Button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/Card";
import { Checkbox } from "../../components/ui/Checkbox";
import { FileDrop } from "../../components/ui/FileDrop";
import { FormField } from "../../components/ui/FormField";
import { Input } from "../../components/ui/Input";
import { Label } from "../../components/ui/Label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../../components/ui/Select";
import { Textarea } from "../../components/ui/Textarea";
import { isApiError } from "../../lib/api";
import { useConfig } from "../../lib/config";
import { useSession } from "../../lib/session";
import { useCreateRequest, useVerifiedDentists } from "./api";
import { addFiles, type ChosenFile } from "./chosenFiles";
import { FileList } from "./FileList";
import { QuoteLinesCard } from "./QuoteLinesCard";
import { READABLE_TYPES, READING_UPLOAD_HINT } from "./reading/readLines";

/** Spec §9: redirect to the dashboard 3 s after a successful upload. */
export const REDIRECT_AFTER_UPLOAD_MS = 3000;

const DENTISTS_LOAD_ERROR = "Impossible de charger la liste des dentistes. Veuillez réessayer plus tard.";

type FieldName =
  | "files"
  | "treatment_type"
  | "quote_amount"
  | "consent"
  | "recipient"
  | "description"
  | "budget";
type FieldErrors = Partial<Record<FieldName, string>>;

interface Values {
  treatment_type: TreatmentType | "";
  description: string;
  budget: string;
  quote_amount: string;
  urgency: Urgency;
  recipient: string;
  consent: boolean;
}

const EMPTY: Values = {
  treatment_type: "",
  description: "",
  budget: "",
  quote_amount: "",
  urgency: DEFAULT_URGENCY,
  recipient: "all",
  consent: false,
};

/**
 * What the browser checks before sending (spec §5); the server checks everything again. With the devis
 * line by line (`withLines`), its amount is the lines' total: the typed amount is not read.
 */
export function validateUpload(values: Values, files: ChosenFile[], withLines = false): FieldErrors {
  const errors: FieldErrors = {};
  if (files.length === 0) errors.files = UPLOAD_MESSAGES.noFile;
  else if (!files.some((f) => f.file.name)) errors.files = UPLOAD_MESSAGES.noValidFile;
  if (!values.treatment_type) errors.treatment_type = UPLOAD_MESSAGES.treatmentRequired;
  if (!withLines && values.quote_amount.trim() && parseEuros(values.quote_amount) === null)
    errors.quote_amount = UPLOAD_MESSAGES.quoteAmountInvalid;
  if (!values.consent) errors.consent = UPLOAD_MESSAGES.consentRequired;
  return errors;
}

/** /patient/upload 'Téléverser des documents' (spec §2, §4, §5, §8; D6, D9, D10). */
export function PatientUploadPage() {
  const navigate = useNavigate();
  const [values, setValues] = useState<Values>(EMPTY);
  const [files, setFiles] = useState<ChosenFile[]>([]);
  const [fileNotices, setFileNotices] = useState<string[]>([]);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [progress, setProgress] = useState<Record<string, number> | undefined>(undefined);
  const [done, setDone] = useState(false);
  // The devis line by line (issue 15), optional.
  const [lines, setLines] = useState<DraftLine[]>([]);
  const [lineErrors, setLineErrors] = useState<LineErrors>({});
  const [linesSubmitted, setLinesSubmitted] = useState(false);
  const create = useCreateRequest();
  const { brand_name: brand } = useConfig();
  // The neutral order (by name) unless the patient picks 'Les plus proches' (ADR 019).
  const [dentistSort, setDentistSort] = useState<DentistSort>("name");
  const dentists = useVerifiedDentists(dentistSort);
  const { profile } = useSession();
  const ids = useId();
  const fileErrorId = `${ids}-files-error`;
  const consentId = `${ids}-consent`;
  const consentErrorId = `${ids}-consent-error`;
  const successRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (dentists.isError) toast.error(DENTISTS_LOAD_ERROR);
  }, [dentists.isError]);

  useEffect(() => {
    if (!done) return;
    successRef.current?.focus();
    const timer = setTimeout(() => navigate("/patient/dashboard"), REDIRECT_AFTER_UPLOAD_MS);
    return () => clearTimeout(timer);
  }, [done, navigate]);

  const set = <K extends keyof Values>(field: K, value: Values[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field as FieldName]) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const onFiles = (incoming: File[]) => {
    const result = addFiles(files, incoming);
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
    const checkedLines = withLines
      ? validateLines(lines, "patient", parisToday(new Date()))
      : { ok: true as const, lines: [] };
    setErrors(found);
    setLinesSubmitted(withLines);
    setLineErrors(checkedLines.ok ? {} : checkedLines.errors);
    const first =
      Object.values(found)[0] ?? (checkedLines.ok ? undefined : firstLineError(checkedLines.errors));
    if (first) {
      toast.error(first);
      // Take the keyboard to the first field to correct, once the errors are rendered.
      const formElement = event.currentTarget;
      setTimeout(() => formElement.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);
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
          urgency: values.urgency,
          recipient: values.recipient,
          files: sent.map(({ file, type }) => ({ file, type })),
        },
        onProgress: (perFile) =>
          setProgress(Object.fromEntries(sent.map((f, index) => [f.key, perFile[index] ?? 0]))),
      },
      {
        onSuccess: () => {
          toast.success(UPLOAD_MESSAGES.success, {
            description: "Les dentistes répondent en général sous 48 heures.",
          });
          setDone(true);
        },
        onError: (error) => {
          setProgress(undefined);
          const message = isApiError(error) ? error.message : "Veuillez réessayer dans quelques instants.";
          toast.error(UPLOAD_MESSAGES.failure, { description: message });
          if (isApiError(error)) {
            const next: FieldErrors = {};
            setLineErrors(lineErrorsFromFields(error.fields, "quote_lines"));
            for (const [field, text] of Object.entries(error.fields)) {
              if (field === "quote_lines" || field.startsWith("quote_lines.")) continue;
              if (
                ["treatment_type", "quote_amount", "consent", "recipient", "description", "budget"].includes(
                  field,
                )
              )
                next[field as FieldName] = text;
              else next.files = text;
            }
            if (Object.keys(error.fields).length === 0 && error.status !== 0 && error.status < 500)
              next.files = error.message;
            setErrors(next);
          }
        },
      },
    );
  };

  if (done) {
    return (
      <>
        <PageHeader title="Téléverser des documents" />
        <div
          ref={successRef}
          tabIndex={-1}
          role="status"
          className="grid gap-4 rounded-ui border border-green-300 bg-green-50 p-6 text-green-900 outline-none"
        >
          <div className="flex items-start gap-3">
            <CheckCircle2 className="mt-0.5 size-6 shrink-0 text-green-700" aria-hidden="true" />
            <div className="grid gap-1">
              <h2 className="text-lg font-semibold">Documents téléversés avec succès !</h2>
              <p>
                Votre demande a été envoyée. Les dentistes vérifiés répondent en général sous 48 heures. Vous
                allez être redirigé vers votre tableau de bord dans quelques secondes.
              </p>
            </div>
          </div>
          <div className="flex flex-col gap-3 sm:flex-row">
            <Button asChild>
              <Link to="/patient/dashboard">Aller au tableau de bord</Link>
            </Button>
            <Button asChild variant="outline">
              <Link to="/patient/requests">Voir toutes mes demandes</Link>
            </Button>
          </div>
        </div>
      </>
    );
  }

  const sending = create.isPending;
  const linesTotal = lines.length > 0 ? draftsTotal(lines) : null;
  const dentistList = dentists.data ?? [];
  const chosenDentist = dentistList.find((d) => d.id === values.recipient);
  const dentistLabel = (d: { full_name: string; city: string | null; distance_km?: number | null }) =>
    [d.city ? `${d.full_name} — ${d.city}` : d.full_name, formatDistance(d.distance_km)]
      .filter(Boolean)
      .join(" · ");

  return (
    <>
      <PageHeader
        title="Téléverser des documents"
        description="Déposez le devis de votre dentiste avec vos radiographies ou photos : des dentistes vérifiés l'étudient et vous proposent une offre."
      />
      <form onSubmit={onSubmit} noValidate aria-label="Nouvelle demande de devis" className="grid gap-6">
        <Card>
          <CardHeader>
            <CardTitle>Vos documents</CardTitle>
            <CardDescription>
              Le devis de votre dentiste, vos radiographies, vos photos. Précisez le type de chaque fichier.
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            <FileDrop
              label="Choisir des fichiers"
              description={FILE_RECOMMENDATION}
              accept={ACCEPT_ATTRIBUTE}
              multiple
              disabled={sending}
              invalid={Boolean(errors.files)}
              errorId={errors.files || fileNotices.length > 0 ? fileErrorId : undefined}
              onFiles={onFiles}
            />
            {errors.files || fileNotices.length > 0 ? (
              <div id={fileErrorId} className="grid gap-1 text-sm font-medium text-red-700">
                {errors.files ? <p>{errors.files}</p> : null}
                {fileNotices.map((notice) => (
                  <p key={notice}>{notice}</p>
                ))}
              </div>
            ) : null}
            <FileList
              files={files}
              onTypeChange={onTypeChange}
              onRemove={onRemove}
              progress={progress}
              disabled={sending}
            />
            {files.some((f) => f.type === "quote" && READABLE_TYPES.includes(f.file.type)) &&
            lines.length === 0 ? (
              // Issue 17: a devis sent without its lines is read on our server, then checked by the patient.
              <p className="flex items-start gap-2 text-sm text-slate-700">
                <ScanText className="mt-0.5 size-4 shrink-0 text-brand-700" aria-hidden="true" />
                {READING_UPLOAD_HINT}
              </p>
            ) : null}
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>Votre traitement</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-5 sm:grid-cols-2">
            <FormField label="Type de traitement" required error={errors.treatment_type}>
              {(control) => (
                <Select
                  value={values.treatment_type}
                  onValueChange={(value) => set("treatment_type", value as TreatmentType)}
                  disabled={sending}
                >
                  <SelectTrigger {...control}>
                    <SelectValue placeholder="Sélectionnez un traitement" />
                  </SelectTrigger>
                  <SelectContent>
                    {TREATMENT_TYPES.map((value) => (
                      <SelectItem key={value} value={value}>
                        {TREATMENT_LABELS[value]}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              )}
            </FormField>
            <FormField label="Urgence">
              {(control) => (
                <Select
                  value={values.urgency}
                  onValueChange={(value) => set("urgency", value as Urgency)}
                  disabled={sending}
                >
                  <SelectTrigger {...control}>
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    {URGENCIES.map((value) => (
                      <SelectItem key={value} value={value}>
                        {urgencyFormLabel(value)}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              )}
            </FormField>
            <FormField
              label="Description"
              className="sm:col-span-2"
              error={errors.description}
              description="Vos symptômes, ce que votre dentiste vous a proposé, vos questions."
            >
              {(control) => (
                <Textarea
                  {...control}
                  rows={4}
                  maxLength={5000}
                  value={values.description}
                  onChange={(event) => set("description", event.target.value)}
                  disabled={sending}
                />
              )}
            </FormField>
            <FormField
              label="Budget"
              error={errors.budget}
              description="Facultatif, par exemple « 1 500 € maximum »."
            >
              {(control) => (
                <Input
                  {...control}
                  maxLength={100}
                  value={values.budget}
                  onChange={(event) => set("budget", event.target.value)}
                  disabled={sending}
                />
              )}
            </FormField>
            <FormField
              label="Montant de votre devis actuel (optionnel)"
              error={errors.quote_amount}
              description={
                linesTotal !== null
                  ? "Le total des actes de votre devis, détaillés plus bas."
                  : "En euros, par exemple 1 250,50. Il sert à vous montrer l'économie proposée par chaque dentiste."
              }
            >
              {(control) => (
                <div className="relative">
                  <Input
                    {...control}
                    inputMode="decimal"
                    autoComplete="off"
                    className={linesTotal !== null ? "bg-slate-50 pr-9" : "pr-9"}
                    value={linesTotal !== null ? centsToInput(linesTotal) : values.quote_amount}
                    onChange={(event) => set("quote_amount", event.target.value)}
                    readOnly={linesTotal !== null}
                    disabled={sending}
                  />
                  <span
                    className="pointer-events-none absolute inset-y-0 right-3 flex items-center text-slate-600"
                    aria-hidden="true"
                  >
                    €
                  </span>
                </div>
              )}
            </FormField>
          </CardContent>
        </Card>

        <QuoteLinesCard
          value={lines}
          onChange={setLines}
          errors={lineErrors}
          showIncomplete={linesSubmitted}
          disabled={sending}
        />

        <Card>
          <CardHeader>
            <CardTitle>Destinataire et confidentialité</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-5">
            <fieldset className="grid gap-2">
              <legend className="mb-1 text-sm font-medium text-slate-900">{GEO_MESSAGES.sortLabel}</legend>
              <div className="flex flex-wrap gap-x-6 gap-y-2">
                {(
                  [
                    ["name", GEO_MESSAGES.sortNeutral],
                    ["distance", GEO_MESSAGES.sortNearest],
                  ] as const
                ).map(([value, label]) => (
                  <label key={value} className="flex items-center gap-2 text-sm text-slate-700">
                    <input
                      type="radio"
                      name={`${ids}-dentist-sort`}
                      value={value}
                      checked={dentistSort === value}
                      onChange={() => setDentistSort(value)}
                      disabled={sending}
                      className="size-4 accent-brand-700"
                    />
                    {label}
                  </label>
                ))}
              </div>
              {profile && !profile.postal_code ? (
                <p className="text-sm text-slate-600">
                  {GEO_MESSAGES.sortNeedsPostalCode}{" "}
                  <Link to="/patient/profile" className="font-medium text-brand-700 underline">
                    Renseigner mon code postal
                  </Link>
                </p>
              ) : null}
            </fieldset>
            <FormField
              label="Dentiste destinataire"
              error={errors.recipient}
              description={
                dentists.isError
                  ? DENTISTS_LOAD_ERROR
                  : dentists.isSuccess && dentistList.length === 0
                    ? "Aucun dentiste vérifié n'est disponible pour le moment"
                    : "Tous les dentistes vérifiés peuvent vous répondre, ou seulement celui que vous choisissez."
              }
            >
              {(control) => (
                <Select
                  value={values.recipient}
                  onValueChange={(value) => set("recipient", value)}
                  disabled={sending}
                >
                  <SelectTrigger {...control} className="sm:max-w-md">
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    <SelectItem value="all">Tous les dentistes vérifiés</SelectItem>
                    {dentists.isPending ? (
                      <SelectItem value="loading" disabled>
                        Chargement...
                      </SelectItem>
                    ) : null}
                    {dentists.isSuccess && dentistList.length === 0 ? (
                      <SelectItem value="none" disabled>
                        Aucun dentiste vérifié disponible
                      </SelectItem>
                    ) : null}
                    {dentistList.map((dentist) => (
                      <SelectItem key={dentist.id} value={dentist.id}>
                        {dentistLabel(dentist)}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              )}
            </FormField>
            <div className="grid gap-1.5">
              <div className="flex items-start gap-3">
                <Checkbox
                  id={consentId}
                  checked={values.consent}
                  onCheckedChange={(checked) => set("consent", checked === true)}
                  disabled={sending}
                  required
                  aria-invalid={errors.consent ? true : undefined}
                  aria-describedby={errors.consent ? consentErrorId : undefined}
                  className="mt-0.5"
                />
                <Label htmlFor={consentId} required className="font-normal leading-relaxed text-slate-800">
                  {consentText({ brand, dentistName: chosenDentist?.full_name ?? null })}
                </Label>
              </div>
              {errors.consent ? (
                <p id={consentErrorId} className="text-sm font-medium text-red-700">
                  {errors.consent}
                </p>
              ) : null}
            </div>
          </CardContent>
        </Card>

        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button
            variant="outline"
            size="lg"
            onClick={() => navigate("/patient/dashboard")}
            disabled={sending}
          >
            Annuler
          </Button>
          <Button type="submit" size="lg" disabled={sending} className="sm:min-w-60">
            {sending ? "Traitement en cours..." : "Envoyer ma demande"}
          </Button>
        </div>
      </form>
    </>
  );
}
