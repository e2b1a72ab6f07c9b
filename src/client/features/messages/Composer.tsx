import { useQueryClient } from "@tanstack/react-query";
import { FileText, ImageIcon, Paperclip } from "lucide-react";
import { useId, useRef, useState } from "react";
import { toast } from "sonner";
import { ACCEPT_ATTRIBUTE } from "../../../shared/domain/files";
import { toName } from "../../../shared/format/names";
import { CHAT_MESSAGES, MESSAGE_MAX_FILES, MESSAGE_MAX_LENGTH } from "../../../shared/schemas/conversations";
import { AttachButton, ChatForm } from "../../components/chat/ChatForm";
import { FileChip } from "../../components/chat/FileChip";
import { wrongContentOf } from "../../lib/fileContent";
import { conversationKeys } from "../../lib/queryKeys";
import { type AttachedFile, attachFiles } from "./files";

interface ComposerProps {
  /** Sends the message; rejects with the server's error (the text is then kept). */
  onSend: (body: string, files: File[]) => Promise<unknown>;
  sending: boolean;
  /** Who the message goes to, for the field's label. */
  recipient: string;
  /** The conversation: its unsent text is kept while the person goes elsewhere in the app. */
  conversationId: string;
}

/**
 * A message with empty text and no attachment cannot be sent; Enter sends, Shift+Enter makes a
 * new line. Files: the upload types, 10 MB each, at most five, removable before sending. The text
 * not sent yet is kept per conversation in the query cache (back to the list on a phone, another
 * page, then back: it is there), never stored on the device, forgotten at sign-out with the cache.
 */
export function Composer({ onSend, sending, recipient, conversationId }: ComposerProps) {
  const errorId = useId();
  const textarea = useRef<HTMLTextAreaElement>(null);
  const queryClient = useQueryClient();
  const draftKey = conversationKeys.draft(conversationId);
  const [text, setShownText] = useState(() => queryClient.getQueryData<string>(draftKey) ?? "");
  const setText = (value: string) => {
    setShownText(value);
    if (value) queryClient.setQueryData(draftKey, value);
    else queryClient.removeQueries({ queryKey: draftKey, exact: true });
  };
  const [files, setShownFiles] = useState<AttachedFile[]>([]);
  // The list as it is now: files are checked (their first bytes read) before they are added.
  const filesNow = useRef<AttachedFile[]>([]);
  const setFiles = (next: AttachedFile[]) => {
    filesNow.current = next;
    setShownFiles(next);
  };
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

  const addFiles = async (incoming: File[]) => {
    if (incoming.length === 0) return;
    const wrong = await wrongContentOf(incoming);
    const result = attachFiles(filesNow.current, incoming, wrong);
    setFiles(result.files);
    setErrors(result.errors);
  };

  const removeFile = (key: string) => {
    setFiles(filesNow.current.filter((f) => f.key !== key));
    setErrors([]);
    textarea.current?.focus();
  };

  return (
    <ChatForm
      label="Écrire un message"
      className="grid gap-2 border-t border-slate-200 bg-white p-3"
      fieldLabel={`Votre message ${toName(recipient)}`}
      placeholder="Écrivez votre message..."
      maxLength={MESSAGE_MAX_LENGTH}
      value={text}
      onChange={setText}
      onSend={() => void submit()}
      canSend={canSend}
      sending={sending}
      textareaRef={textarea}
      errorId={errors.length > 0 ? errorId : undefined}
      hint={`Jusqu'à ${MESSAGE_MAX_FILES} fichiers de 10 Mo (PDF, JPG, PNG, vidéo).`}
      above={
        <>
          {files.length > 0 ? (
            <ul aria-label="Fichiers joints" className="flex flex-wrap gap-2">
              {files.map(({ key, file }) => {
                const Icon = file.type.startsWith("image/") ? ImageIcon : FileText;
                return (
                  <FileChip
                    key={key}
                    as="li"
                    file={file}
                    className="gap-1.5 pl-3"
                    leading={<Icon className="size-4 shrink-0 text-slate-600" aria-hidden="true" />}
                    onRemove={() => removeFile(key)}
                  />
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
        </>
      }
      attach={
        <AttachButton
          label="Joindre des fichiers"
          inputLabel="Fichiers à joindre"
          accept={ACCEPT_ATTRIBUTE}
          multiple
          disabled={files.length >= MESSAGE_MAX_FILES}
          icon={<Paperclip aria-hidden="true" />}
          onFiles={(incoming) => void addFiles(incoming)}
        />
      }
    />
  );
}
