import { FileText, ImageIcon, Paperclip, Send, X } from "lucide-react";
import { type FormEvent, type KeyboardEvent, useId, useRef, useState } from "react";
import { toast } from "sonner";
import { ACCEPT_ATTRIBUTE } from "../../../shared/domain/files";
import { formatFileSize } from "../../../shared/format/size";
import { CHAT_MESSAGES, MESSAGE_MAX_FILES, MESSAGE_MAX_LENGTH } from "../../../shared/schemas/conversations";
import { Button } from "../../components/ui/Button";
import { Label } from "../../components/ui/Label";
import { Textarea } from "../../components/ui/Textarea";
import { type AttachedFile, attachFiles } from "./files";

interface ComposerProps {
  /** Sends the message; rejects with the server's error (the text is then kept). */
  onSend: (body: string, files: File[]) => Promise<unknown>;
  sending: boolean;
  /** Who the message goes to, for the field's label. */
  recipient: string;
}

/**
 * Spec §4: a message with empty text and no attachment cannot be sent; Enter sends, Shift+Enter
 * makes a new line. Files: the upload types, 10 MB each, at most five, removable before sending.
 */
export function Composer({ onSend, sending, recipient }: ComposerProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const textarea = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const [text, setText] = useState("");
  const [files, setFiles] = useState<AttachedFile[]>([]);
  const [errors, setErrors] = useState<string[]>([]);

  const canSend = !sending && (text.trim().length > 0 || files.length > 0);

  const submit = async () => {
    if (!canSend) return;
    try {
      await onSend(
        text.trim(),
        files.map((f) => f.file),
      );
      setText("");
      setFiles([]);
      setErrors([]);
    } catch (error) {
      toast.error(CHAT_MESSAGES.sendFailed, {
        description: error instanceof Error ? error.message : undefined,
      });
    }
    textarea.current?.focus();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== "Enter" || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void submit();
  };

  const addFiles = (incoming: File[]) => {
    if (incoming.length === 0) return;
    const result = attachFiles(files, incoming);
    setFiles(result.files);
    setErrors(result.errors);
  };

  const removeFile = (key: string) => {
    setFiles((current) => current.filter((f) => f.key !== key));
    setErrors([]);
    textarea.current?.focus();
  };

  return (
    <form
      onSubmit={onSubmit}
      className="grid gap-2 border-t border-slate-200 bg-white p-3"
      aria-label="Écrire un message"
    >
      {files.length > 0 ? (
        <ul aria-label="Fichiers joints" className="flex flex-wrap gap-2">
          {files.map(({ key, file }) => {
            const Icon = file.type.startsWith("image/") ? ImageIcon : FileText;
            return (
              <li
                key={key}
                className="flex max-w-full items-center gap-1.5 rounded-full border border-slate-300 bg-slate-50 py-1 pr-1 pl-3 text-sm text-slate-800"
              >
                <Icon className="size-4 shrink-0 text-slate-600" aria-hidden="true" />
                <span className="max-w-48 truncate">{file.name}</span>
                <span className="shrink-0 text-xs text-slate-600">{formatFileSize(file.size)}</span>
                <button
                  type="button"
                  onClick={() => removeFile(key)}
                  aria-label={`Retirer ${file.name}`}
                  className="flex size-7 shrink-0 items-center justify-center rounded-full text-slate-600 hover:bg-slate-200 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-700"
                >
                  <X className="size-4" aria-hidden="true" />
                </button>
              </li>
            );
          })}
        </ul>
      ) : null}
      {errors.length > 0 ? (
        <div id={errorId} role="alert" className="grid gap-0.5 text-sm text-red-800">
          {errors.map((error) => (
            <p key={error}>{error}</p>
          ))}
        </div>
      ) : null}
      <div className="flex items-end gap-2">
        <input
          ref={fileInput}
          type="file"
          multiple
          accept={ACCEPT_ATTRIBUTE}
          tabIndex={-1}
          className="sr-only"
          aria-label="Fichiers à joindre"
          onChange={(event) => {
            addFiles(Array.from(event.target.files ?? []));
            event.target.value = "";
          }}
        />
        <Button
          variant="ghost"
          size="icon"
          aria-label="Joindre des fichiers"
          title="Joindre des fichiers"
          disabled={files.length >= MESSAGE_MAX_FILES}
          onClick={() => fileInput.current?.click()}
        >
          <Paperclip aria-hidden="true" />
        </Button>
        <div className="grid min-w-0 flex-1">
          <Label htmlFor={id} className="sr-only">
            {`Votre message à ${recipient}`}
          </Label>
          <Textarea
            ref={textarea}
            id={id}
            rows={1}
            value={text}
            maxLength={MESSAGE_MAX_LENGTH}
            placeholder="Écrivez votre message..."
            aria-describedby={errors.length > 0 ? `${hintId} ${errorId}` : hintId}
            className="field-sizing-content max-h-40 min-h-10 resize-none"
            onChange={(event) => setText(event.target.value)}
            onKeyDown={onKeyDown}
          />
        </div>
        <Button type="submit" disabled={!canSend} loading={sending}>
          <Send aria-hidden="true" />
          Envoyer
        </Button>
      </div>
      <p id={hintId} className="text-xs text-slate-600">
        Entrée pour envoyer, Maj + Entrée pour aller à la ligne. Jusqu'à {MESSAGE_MAX_FILES} fichiers de 10 Mo
        (PDF, JPG, PNG, vidéo).
      </p>
    </form>
  );
}
