import { Camera } from "lucide-react";
import { useId, useRef, useState } from "react";
import { toast } from "sonner";
import { AVATAR_MAX_SIZE, PROFILE_MESSAGES, type Profile } from "../../shared/schemas/profile";
import { isApiError } from "../lib/api";
import { Avatar } from "./ui/Avatar";

const AVATAR_TYPES = ["image/jpeg", "image/png"];

/** Client-side check of an avatar (the server checks the content again). */
export function avatarProblem(file: File): string | null {
  if (!AVATAR_TYPES.includes(file.type) && !/\.(jpe?g|png)$/i.test(file.name))
    return PROFILE_MESSAGES.avatarType;
  if (file.size > AVATAR_MAX_SIZE) return PROFILE_MESSAGES.avatarTooLarge;
  return null;
}

/** The French description of a failure, for the toasts of the profile pages. */
export const failureDescription = (error: unknown) =>
  isApiError(error) ? error.message : "Une erreur s'est produite";

/** The upload mutation of the area (POST /api/me/avatar, then setSession). */
export interface AvatarUploadMutation {
  mutate: (file: File, callbacks: { onSuccess: () => void; onError: (error: unknown) => void }) => void;
  isPending: boolean;
}

/** Avatar with 'Changer ma photo' (JPG or PNG, 5 Mo), shared by the patient and dentist profiles. */
export function AvatarUpload({ profile, upload }: { profile: Profile; upload: AvatarUploadMutation }) {
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const input = useRef<HTMLInputElement>(null);

  const onChange = (file: File | undefined) => {
    if (input.current) input.current.value = "";
    if (!file) return;
    const problem = avatarProblem(file);
    setError(problem);
    if (problem) {
      toast.error(PROFILE_MESSAGES.failure, { description: problem });
      return;
    }
    upload.mutate(file, {
      onSuccess: () => toast.success(PROFILE_MESSAGES.success, { description: "Votre photo a été changée." }),
      onError: (failure) => {
        const message = failureDescription(failure);
        setError(message);
        toast.error(PROFILE_MESSAGES.failure, { description: message });
      },
    });
  };

  return (
    <div className="flex flex-wrap items-center gap-4">
      <Avatar name={profile.full_name || profile.email} src={profile.avatar_url} size="lg" />
      <div className="grid gap-1.5">
        <input
          ref={input}
          id={id}
          type="file"
          accept="image/jpeg,image/png,.jpg,.jpeg,.png"
          className="peer sr-only"
          disabled={upload.isPending}
          aria-describedby={`${id}-help${error ? ` ${id}-error` : ""}`}
          onChange={(event) => onChange(event.target.files?.[0])}
        />
        <label
          htmlFor={id}
          className="inline-flex h-9 w-fit cursor-pointer items-center gap-2 rounded-ui border border-slate-300 bg-white px-3 text-sm font-medium text-slate-900 hover:bg-slate-50 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-700 peer-disabled:cursor-not-allowed peer-disabled:opacity-60"
        >
          <Camera className="size-4" aria-hidden="true" />
          {upload.isPending ? "Envoi de la photo..." : "Changer ma photo"}
        </label>
        <p id={`${id}-help`} className="text-sm text-slate-600">
          JPG ou PNG, 5 Mo maximum.
        </p>
        {error ? (
          <p id={`${id}-error`} className="text-sm font-medium text-red-700">
            {error}
          </p>
        ) : null}
      </div>
    </div>
  );
}
