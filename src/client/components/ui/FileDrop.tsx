import { Upload } from "lucide-react";
import { type DragEvent, type ReactNode, useId, useRef, useState } from "react";
import { cn } from "../../lib/cn";

interface FileDropProps {
  /** Accessible name of the file input (also the visible call to action). */
  label: string;
  /** Help text under the call to action (formats, sizes). */
  description?: ReactNode;
  accept?: string;
  multiple?: boolean;
  disabled?: boolean;
  /** Id of an error message shown elsewhere, wired with aria-describedby. */
  errorId?: string;
  invalid?: boolean;
  /** Receives the files chosen with the picker or dropped on the zone, in their order. */
  onFiles: (files: File[]) => void;
  className?: string;
}

/**
 * A drop zone that is also the label of a real file input: clicking anywhere opens the picker,
 * the input itself takes the keyboard focus (Tab, then Enter or Space), and files can be dropped.
 * The input is emptied after each choice so the same file can be chosen again after a removal.
 */
export function FileDrop({
  label,
  description,
  accept,
  multiple = false,
  disabled = false,
  errorId,
  invalid = false,
  onFiles,
  className,
}: FileDropProps) {
  const id = useId();
  const descriptionId = `${id}-description`;
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  const onDrop = (event: DragEvent<HTMLLabelElement>) => {
    event.preventDefault();
    setDragging(false);
    if (disabled) return;
    const files = Array.from(event.dataTransfer.files);
    if (files.length > 0) onFiles(multiple ? files : files.slice(0, 1));
  };

  const describedBy = [description ? descriptionId : null, errorId ?? null].filter(Boolean).join(" ");

  return (
    <label
      htmlFor={id}
      onDragEnter={(event) => {
        event.preventDefault();
        if (!disabled) setDragging(true);
      }}
      onDragOver={(event) => {
        event.preventDefault();
        if (!disabled) event.dataTransfer.dropEffect = "copy";
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={onDrop}
      className={cn(
        "flex cursor-pointer flex-col items-center justify-center gap-3 rounded-ui border-2 border-dashed px-6 py-10 text-center transition-colors",
        "focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-brand-700",
        dragging ? "border-brand-700 bg-brand-50" : "border-slate-300 bg-slate-50 hover:bg-slate-100",
        invalid && !dragging && "border-red-700",
        disabled && "cursor-not-allowed opacity-60",
        className,
      )}
    >
      <span className="flex size-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
        <Upload className="size-6" aria-hidden="true" />
      </span>
      <span className="font-semibold text-slate-900">{label}</span>
      <span className="text-sm text-slate-600">ou glissez-déposez vos fichiers ici</span>
      {description ? (
        <span id={descriptionId} className="max-w-md text-sm text-slate-600">
          {description}
        </span>
      ) : null}
      <input
        ref={input}
        id={id}
        type="file"
        className="sr-only"
        accept={accept}
        multiple={multiple}
        disabled={disabled}
        aria-label={label}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy || undefined}
        onChange={(event) => {
          const files = Array.from(event.target.files ?? []);
          event.target.value = "";
          if (files.length > 0) onFiles(files);
        }}
      />
    </label>
  );
}
