import { useId } from "react";
import { toast } from "sonner";
import {
  EMAIL_PREFERENCES_ANCHOR,
  type EmailPreference,
  PROFILE_MESSAGES,
  type Profile,
} from "../../../shared/schemas/profile";
import { useSaveEmailPreferences } from "../../lib/profile";
import { Checkbox } from "../ui/Checkbox";
import { Label } from "../ui/Label";
import { AccountCard, AccountSection } from "./AccountSection";

type Choice = { key: EmailPreference; label: string; hint: string };

/** The e-mails each side may stop (ADR 081, 086); a dentist is sent no reminder. */
const CHOICES: Record<"patient" | "dentist", Choice[]> = {
  patient: [
    {
      key: "messages",
      label: "Nouveaux messages des dentistes",
      hint: "Quand un message reste non lu 15 minutes, une fois par heure au plus.",
    },
    {
      key: "reminders",
      label: "Rappels de rendez-vous et de propositions",
      hint: "Une semaine avant et la veille de chaque rendez-vous confirmé, et trois jours avant la fin de validité d'une proposition.",
    },
    {
      key: "reviews",
      label: "Invitations à donner un avis",
      hint: "Le lendemain d'un rendez-vous pris ici.",
    },
  ],
  dentist: [
    {
      key: "messages",
      label: "Nouveaux messages des patients",
      hint: "Quand un message reste non lu 15 minutes, une fois par heure au plus.",
    },
    {
      key: "reviews",
      label: "Nouveaux avis publiés sur vous",
      hint: "Quand notre équipe publie l'avis d'un patient.",
    },
    {
      key: "new_requests",
      label: "Nouvelles demandes de patients",
      hint: "Chaque matin vers 8 h, s'il y en a : le nombre de demandes envoyées à tous les dentistes que vous n'avez pas encore ouvertes.",
    },
  ],
};

/**
 * 'Notifications' of the patient's and the dentist's profile pages (ADR 081): the e-mails one may stop, each
 * saved as soon as it is ticked or unticked. The link at the foot of those e-mails leads here.
 */
export function EmailPreferencesSection({ profile, className }: { profile: Profile; className?: string }) {
  const save = useSaveEmailPreferences();
  const descriptionId = useId();
  const choices = CHOICES[profile.role === "dentist" ? "dentist" : "patient"];
  const change = (key: EmailPreference, value: boolean) =>
    save.mutate(
      { [key]: value },
      {
        onSuccess: () => toast.success(PROFILE_MESSAGES.emailPreferencesSaved),
        onError: (error) =>
          toast.error(PROFILE_MESSAGES.emailPreferencesFailed, {
            description: error instanceof Error ? error.message : undefined,
          }),
      },
    );
  return (
    <AccountSection id={EMAIL_PREFERENCES_ANCHOR} title="Notifications" className={className}>
      <AccountCard
        title="Les e-mails que vous recevez"
        descriptionId={descriptionId}
        description="Les e-mails sur votre compte, vos demandes, les propositions et vos rendez-vous vous sont toujours envoyés, comme les réponses de notre équipe. Vous pouvez arrêter ceux-ci :"
      >
        <fieldset
          aria-describedby={descriptionId}
          aria-busy={save.isPending || undefined}
          className="grid gap-4"
        >
          <legend className="sr-only">Notifications que vous pouvez arrêter</legend>
          {choices.map((choice) => (
            <EmailChoice
              key={choice.key}
              choice={choice}
              checked={profile.email_preferences[choice.key]}
              disabled={save.isPending}
              onChange={(value) => change(choice.key, value)}
            />
          ))}
        </fieldset>
      </AccountCard>
    </AccountSection>
  );
}

function EmailChoice({
  choice,
  checked,
  disabled,
  onChange,
}: {
  choice: Choice;
  checked: boolean;
  disabled: boolean;
  onChange: (value: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="flex items-start gap-3">
      <Checkbox
        id={id}
        checked={checked}
        disabled={disabled}
        aria-describedby={`${id}-hint`}
        onCheckedChange={(value) => onChange(value === true)}
        className="mt-0.5"
      />
      <div className="grid gap-0.5">
        <Label htmlFor={id} className="font-medium">
          {choice.label}
        </Label>
        <p id={`${id}-hint`} className="text-sm text-slate-600">
          {choice.hint}
        </p>
      </div>
    </div>
  );
}
