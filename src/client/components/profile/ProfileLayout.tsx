import type { ReactNode } from "react";
import type { Profile } from "../../../shared/schemas/profile";
import { useUploadAvatar } from "../../lib/profile";
import { useSession } from "../../lib/session";
import { AvatarUpload } from "../AvatarUpload";
import { DataSection } from "../account/DataSection";
import { EmailPreferencesSection } from "../account/EmailPreferencesSection";
import { SecuritySection } from "../account/SecuritySection";
import { PageHeader } from "../PageHeader";
import { Card, CardContent, CardHeader, CardTitle } from "../ui/Card";
import { PageSpinner } from "../ui/Spinner";

/**
 * 'Mon profil', for patients and dentists: the card of the person's information (photo, then the
 * form), a column beside it (`aside`), what the area adds (`more`), then e-mails, security and data.
 * `asideFirst` puts the column first in reading order (and second on wide screens).
 */
export function ProfileLayout({
  description,
  formTitle,
  form,
  aside,
  asideFirst = false,
  more,
}: {
  description: string;
  formTitle: string;
  form: (profile: Profile) => ReactNode;
  aside: (profile: Profile) => ReactNode;
  asideFirst?: boolean;
  more?: ReactNode;
}) {
  const { profile } = useSession();
  const upload = useUploadAvatar();
  if (!profile) return <PageSpinner />;
  const main = (
    <Card className={asideFirst ? "lg:order-1 lg:col-span-2" : "lg:col-span-2"}>
      <CardHeader>
        <CardTitle>{formTitle}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-6">
        <AvatarUpload profile={profile} upload={upload} />
        {form(profile)}
      </CardContent>
    </Card>
  );
  return (
    <>
      <PageHeader title="Mon profil" description={description} />
      <div className="grid gap-6 lg:grid-cols-3">
        {asideFirst ? aside(profile) : main}
        {asideFirst ? main : aside(profile)}
      </div>
      {more}
      <EmailPreferencesSection profile={profile} className="mt-8" />
      <SecuritySection email={profile.email} canChangeEmail className="mt-8" />
      <DataSection className="mt-8" />
    </>
  );
}
