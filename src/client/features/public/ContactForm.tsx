import { Paperclip, Send } from "lucide-react";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { toast } from "sonner";
import {
  CONTACT_MESSAGE_MAX_LENGTH,
  CONTACT_MESSAGES,
  CONTACT_NAME_MAX_LENGTH,
} from "../../../shared/domain/contact";
import {
  ACCEPT_ATTRIBUTE,
  FILE_RECOMMENDATION,
  isAcceptedFile,
  isTooLarge,
} from "../../../shared/domain/files";
import { EMAIL_MAX_LENGTH } from "../../../shared/domain/limits";
import type { TreatmentType } from "../../../shared/domain/treatments";
import { TreatmentSelect } from "../../components/OptionSelect";
import { Button } from "../../components/ui/Button";
import { EmailField, FormField, InputField, TextareaField } from "../../components/ui/FormField";
import { Progress } from "../../components/ui/Progress";
import { isApiError } from "../../lib/api";
import { wrongContentOf } from "../../lib/fileContent";
import { textProps } from "../../lib/form";
import { useHydrated } from "../../lib/hydrated";
import { postMultipart } from "../../lib/upload";

/** The fields in the order the form shows them: the first invalid one gets the focus. */
const FIELD_NAMES = ["name", "email", "treatment_type", "message", "file"] as const;
type FieldName = (typeof FIELD_NAMES)[number];
type FieldErrors = Partial<Record<FieldName, string>>;

const EMPTY = { name: "", email: "", treatment_type: "" as TreatmentType | "", message: "" };

/** Milliseconds the full bar stays before going back to 0. */
const PROGRESS_RESET_MS = 1000;

const looksLikeEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);

/**
 * What the browser checks before sending, with the server's limits and texts (the server checks
 * everything again): name and e-mail required, the name at most CONTACT_NAME_MAX_LENGTH characters,
 * a message or a file, the message at most CONTACT_MESSAGE_MAX_LENGTH characters, counted trimmed.
 */
function contactErrors(values: typeof EMPTY, hasFile: boolean): FieldErrors {
  const found: FieldErrors = {};
  const name = values.name.trim();
  const email = values.email.trim();
  const message = values.message.trim();
  if (!name) found.name = CONTACT_MESSAGES.required;
  else if (name.length > CONTACT_NAME_MAX_LENGTH) found.name = CONTACT_MESSAGES.nameTooLong;
  if (!email) found.email = CONTACT_MESSAGES.required;
  else if (email.length > EMAIL_MAX_LENGTH || !looksLikeEmail(email))
    found.email = CONTACT_MESSAGES.emailInvalid;
  // Said before a file is sent for nothing.
  if (message.length > CONTACT_MESSAGE_MAX_LENGTH) found.message = CONTACT_MESSAGES.messageTooLong;
  else if (!message && !hasFile) found.message = CONTACT_MESSAGES.messageOrFile;
  return found;
}

/** The first of these errors in the order the form shows its fields. */
const firstError = (errors: FieldErrors) =>
  FIELD_NAMES.map((field) => errors[field]).find((message) => message !== undefined);

/**
 * The contact form, on / and /contact. The browser checks what it can
 * for comfort (required name and email, their limits, a message or a file, file size and
 * extension; the first invalid field gets the focus); the server checks everything again,
 * including the file's real type. No zod here (ADR 053's addendum): the limits and texts are the
 * schema's own, from shared/domain/contact.ts. The name has no maxLength: a pasted name too long
 * is shown whole with the limit's message rather than silently cut. The upload goes through XMLHttpRequest so the progress
 * bar follows the real bytes: 10 % at the start, 100 % when done, back to 0 one second later,
 * shown only strictly between 0 and 100.
 */
export function ContactForm() {
  const [values, setValues] = useState(EMPTY);
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [submitting, setSubmitting] = useState(false);
  const [progress, setProgress] = useState(0);
  const [honeypot, setHoneypot] = useState("");
  const fileInput = useRef<HTMLInputElement>(null);
  const hydrated = useHydrated();
  const resetTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const honeypotId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  /** Set by a refused submit: once its errors are shown, the first invalid field gets the focus. */
  const focusFirstInvalid = useRef(false);

  useEffect(() => () => clearTimeout(resetTimer.current), []);

  useEffect(() => {
    if (!focusFirstInvalid.current || firstError(errors) === undefined) return;
    focusFirstInvalid.current = false;
    // In the page's order, as the other forms do (the first invalid field, not the button).
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);

  const showErrors = (found: FieldErrors) => {
    focusFirstInvalid.current = firstError(found) !== undefined;
    setErrors((current) => ({ ...current, ...found }));
  };

  const set = (field: keyof typeof EMPTY, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  };
  const text = textProps(values, set);

  const clearFileInput = () => {
    if (fileInput.current) fileInput.current.value = "";
  };

  const onFileChange = async (chosen: File | undefined) => {
    if (!chosen) {
      setFile(null);
      setErrors((current) => ({ ...current, file: undefined }));
      return;
    }
    const refusal = isTooLarge(chosen)
      ? CONTACT_MESSAGES.fileTooLarge
      : !isAcceptedFile(chosen)
        ? CONTACT_MESSAGES.fileType
        : (await wrongContentOf([chosen])).size > 0
          ? CONTACT_MESSAGES.fileContent
          : null;
    if (refusal) {
      clearFileInput();
      setFile(null);
      setErrors((current) => ({ ...current, file: refusal }));
      toast.error(refusal);
      return;
    }
    setFile(chosen);
    // A file alone is a message: the request for one or the other is answered.
    setErrors((current) => ({
      ...current,
      file: undefined,
      message: current.message === CONTACT_MESSAGES.messageOrFile ? undefined : current.message,
    }));
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    const found = contactErrors(values, file !== null);
    const first = firstError(found);
    if (first !== undefined) {
      showErrors(found);
      toast.error(
        Object.values(found).includes(CONTACT_MESSAGES.required) ? CONTACT_MESSAGES.required : first,
      );
      return;
    }

    const body = new FormData();
    body.append("name", values.name.trim());
    body.append("email", values.email.trim());
    body.append("treatment_type", values.treatment_type);
    body.append("message", values.message);
    body.append("website", honeypot);
    if (file) body.append("file", file, file.name);

    clearTimeout(resetTimer.current);
    setSubmitting(true);
    setProgress(10);
    try {
      await postMultipart("/api/contact", body, (percent) =>
        // The bar never goes back under 10 % nor reaches 100 % before the server has answered.
        setProgress(Math.min(99, Math.max(10, Math.round(percent)))),
      );
      setProgress(100);
      resetTimer.current = setTimeout(() => setProgress(0), PROGRESS_RESET_MS);
      toast.success(CONTACT_MESSAGES.success, {
        description: "Notre équipe vous répond par e-mail, en général sous deux jours ouvrés.",
      });
      setValues(EMPTY);
      setFile(null);
      setErrors({});
      setHoneypot("");
      clearFileInput();
    } catch (error) {
      setProgress(0);
      if (isApiError(error) && (error.status === 413 || error.status === 415)) {
        showErrors({ file: error.message });
        toast.error(CONTACT_MESSAGES.uploadError, { description: error.message });
      } else if (isApiError(error) && error.status === 400) {
        const fieldErrors: FieldErrors = {};
        for (const [key, text] of Object.entries(error.fields)) {
          if ((FIELD_NAMES as readonly string[]).includes(key)) fieldErrors[key as FieldName] = text;
        }
        showErrors(fieldErrors);
        toast.error(CONTACT_MESSAGES.sendError, { description: error.message });
      } else if (isApiError(error) && error.status === 429) {
        toast.error(CONTACT_MESSAGES.sendError, { description: error.message });
      } else {
        toast.error(CONTACT_MESSAGES.unexpected, {
          description: "Vérifiez votre connexion internet puis réessayez. Votre message est conservé.",
        });
      }
    } finally {
      setSubmitting(false);
    }
  };

  const showProgress = progress > 0 && progress < 100;

  return (
    <form ref={formRef} onSubmit={onSubmit} noValidate aria-label="Formulaire de contact">
      {/* Until the page runs in the browser (pre-rendered HTML), nothing can be typed and then lost. */}
      <fieldset disabled={!hydrated} className="m-0 grid min-w-0 gap-5 border-0 p-0">
        <div className="grid gap-5 sm:grid-cols-2">
          <InputField
            label="Nom"
            required
            error={errors.name}
            name="name"
            autoComplete="name"
            {...text("name")}
          />
          <EmailField error={errors.email} name="email" inputMode="email" {...text("email")} />
        </div>
        <FormField label="Type de traitement" description="Facultatif." error={errors.treatment_type}>
          {({ required: _required, ...control }) => (
            <TreatmentSelect
              {...control}
              value={values.treatment_type}
              onValueChange={(value) => set("treatment_type", value)}
              placeholder="Choisissez un soin"
              name="treatment_type"
            />
          )}
        </FormField>
        <TextareaField
          label="Message"
          description="Obligatoire si vous ne joignez pas de fichier."
          error={errors.message}
          name="message"
          rows={5}
          {...text("message")}
        />
        <FormField label="Pièce jointe (facultatif)" description={FILE_RECOMMENDATION} error={errors.file}>
          {(control) => (
            <input
              {...control}
              ref={fileInput}
              type="file"
              name="file"
              accept={ACCEPT_ATTRIBUTE}
              onChange={(e) => void onFileChange(e.target.files?.[0])}
              className="block w-full rounded-ui border border-dashed border-slate-300 bg-slate-50 p-2 text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 file:bg-brand-700 file:px-3 file:py-2 file:text-sm file:font-medium file:text-white hover:file:bg-brand-800 focus-visible:outline-2 focus-visible:outline-brand-700"
            />
          )}
        </FormField>
        {file ? (
          <p className="-mt-3 inline-flex items-center gap-1.5 text-sm text-slate-700">
            <Paperclip className="size-4" aria-hidden="true" />
            {file.name}
          </p>
        ) : null}

        {/* Honeypot: people never see it; robots that fill every field are ignored by the server. */}
        <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
          <label htmlFor={honeypotId}>Ne pas remplir ce champ</label>
          <input
            id={honeypotId}
            type="text"
            name="website"
            tabIndex={-1}
            autoComplete="off"
            value={honeypot}
            onChange={(e) => setHoneypot(e.target.value)}
          />
        </div>

        {showProgress ? (
          <div className="grid gap-1.5">
            <Progress value={progress} aria-label="Progression de l'envoi" />
            <p className="text-sm text-slate-600 tabular" aria-hidden="true">
              Envoi en cours… {progress} %
            </p>
          </div>
        ) : null}

        <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-slate-600">
            <span className="text-red-700" aria-hidden="true">
              *
            </span>{" "}
            Champs obligatoires.
          </p>
          <Button type="submit" size="lg" loading={submitting}>
            <Send aria-hidden="true" />
            Envoyer le message
          </Button>
        </div>
      </fieldset>
    </form>
  );
}
