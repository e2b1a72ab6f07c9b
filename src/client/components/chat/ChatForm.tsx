import { Send } from "lucide-react";
import { type FormEvent, type KeyboardEvent, type ReactNode, type Ref, useId, useRef } from "react";
import { TOUCH_SCREEN, useMediaQuery } from "../../lib/media";
import { Button } from "../ui/Button";
import { CharacterCount, characterCountShown } from "../ui/CharacterCount";
import { Label } from "../ui/Label";
import { Textarea } from "../ui/Textarea";

export interface ChatFormProps {
  /** The form's accessible name ("Écrire un message", "Répondre à …"). */
  label: string;
  /** The field's (visually hidden) label. */
  fieldLabel: string;
  placeholder: string;
  /** The server's limit: the browser cuts there, and the count shows near it. */
  maxLength: number;
  value: string;
  onChange: (value: string) => void;
  /** Called by the button and by Enter; the caller checks nothing more than `canSend` said. */
  onSend: () => void;
  canSend: boolean;
  sending: boolean;
  /** The line under the field, after how to send: what may be attached, where the message goes. */
  hint: ReactNode;
  /** Shown above the field: attached files, the request the message names, errors. */
  above?: ReactNode;
  /** The id of an error shown in `above`, read after the hint while it is there. */
  errorId?: string | undefined;
  /** A button (and its hidden input) left of the field, to attach files. */
  attach?: ReactNode;
  textareaRef?: Ref<HTMLTextAreaElement>;
  className: string;
}

/**
 * The message box of every chat (messages between a patient and a dentist, the support chat of
 * both sides): a field that grows with its text, Enter sends and Shift+Enter makes a new line
 * (not while an input method composes), and the send button. On a touch screen, whose keyboard has
 * no Shift+Enter, the return key makes a new line and the button alone sends.
 */
export function ChatForm(props: ChatFormProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const counterId = `${id}-counter`;
  const counted = characterCountShown({ value: props.value, max: props.maxLength });
  const { onSend, canSend } = props;
  const touch = useMediaQuery(TOUCH_SCREEN);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    onSend();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (touch || event.key !== "Enter" || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    onSend();
  };

  return (
    <form onSubmit={onSubmit} aria-label={props.label} className={props.className}>
      {props.above}
      <div className="flex items-end gap-2">
        {props.attach}
        <div className="grid min-w-0 flex-1">
          <Label htmlFor={id} className="sr-only">
            {props.fieldLabel}
          </Label>
          <Textarea
            ref={props.textareaRef}
            id={id}
            rows={1}
            value={props.value}
            maxLength={props.maxLength}
            placeholder={props.placeholder}
            aria-describedby={[hintId, counted ? counterId : null, props.errorId].filter(Boolean).join(" ")}
            className="field-sizing-content max-h-40 min-h-10 resize-none"
            onChange={(event) => props.onChange(event.target.value)}
            onKeyDown={onKeyDown}
          />
        </div>
        <Button type="submit" disabled={!canSend} loading={props.sending}>
          <Send aria-hidden="true" />
          {/* On a phone the icon alone: the message box keeps the width (the name stays « Envoyer »). */}
          <span className="sr-only sm:not-sr-only">Envoyer</span>
        </Button>
      </div>
      <p id={hintId} className="text-xs text-slate-600">
        {touch ? null : "Entrée pour envoyer, Maj + Entrée pour aller à la ligne. "}
        {props.hint}
      </p>
      <CharacterCount id={counterId} value={props.value} max={props.maxLength} />
    </form>
  );
}

/**
 * The button that attaches files to a message, with its hidden file input (out of the tab order:
 * the button is what a keyboard reaches). `onFiles` receives what was chosen; the input is emptied
 * so that the same file can be chosen again.
 */
export function AttachButton({
  label,
  inputLabel,
  accept,
  multiple = false,
  disabled = false,
  icon,
  onFiles,
}: {
  label: string;
  inputLabel: string;
  accept: string;
  multiple?: boolean;
  disabled?: boolean;
  icon: ReactNode;
  onFiles: (files: File[]) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={input}
        type="file"
        multiple={multiple}
        accept={accept}
        tabIndex={-1}
        className="sr-only"
        aria-label={inputLabel}
        onChange={(event) => {
          onFiles(Array.from(event.target.files ?? []));
          event.target.value = "";
        }}
      />
      <Button
        variant="ghost"
        size="icon"
        aria-label={label}
        title={label}
        disabled={disabled}
        onClick={() => input.current?.click()}
      >
        {icon}
      </Button>
    </>
  );
}
