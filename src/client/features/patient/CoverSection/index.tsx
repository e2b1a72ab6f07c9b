import { ShieldPlus } from "lucide-react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../components/ui/Card";
import { LoadError } from "../../../components/ui/LoadError";
import { Skeleton } from "../../../components/ui/Skeleton";
import { isApiError } from "../../../lib/api";
import { cn } from "../../../lib/cn";
import { useCover } from "../api";
import { CoverForm } from "./CoverForm";

/*
 * 'Ma mutuelle' (issue 15), on the patient's profile: optional. With it, every offer shows the
 * reste à charge estimated for this cover; without it, the estimates count the Assurance Maladie only.
 */

export const COVER_ANCHOR = "ma-mutuelle";

export function CoverSection({ className }: { className?: string }) {
  const query = useCover();

  return (
    // '#ma-mutuelle' (the link under an estimate): RootLayout scrolls here once the section exists.
    <Card id={COVER_ANCHOR} className={cn("scroll-mt-20", className)}>
      <CardHeader>
        <CardTitle icon={ShieldPlus}>Ma mutuelle</CardTitle>
        <CardDescription>
          Facultatif. Indiquez comment votre mutuelle rembourse les prothèses dentaires, pour estimer votre
          reste à charge sur chaque proposition. Ces informations ne sont pas montrées aux dentistes.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {query.isPending ? (
          <Skeleton className="h-96" />
        ) : query.isError ? (
          <LoadError
            title="Impossible de charger votre mutuelle"
            message={isApiError(query.error) ? query.error.message : undefined}
            onRetry={() => void query.refetch()}
          />
        ) : (
          <CoverForm cover={query.data} />
        )}
      </CardContent>
    </Card>
  );
}
