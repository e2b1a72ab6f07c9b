import { CheckCircle2, Download, Inbox, Undo2 } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { treatmentLabel } from "../../../shared/domain/treatments";
import { formatDetailDateTime } from "../../../shared/format/dates";
import { ofName } from "../../../shared/format/names";
import { formatFileSize } from "../../../shared/format/size";
import type { ContactItem } from "../../../shared/schemas/admin";
import { PageHeader } from "../../components/PageHeader";
import { Badge } from "../../components/ui/Badge";
import { Button } from "../../components/ui/Button";
import { Card } from "../../components/ui/Card";
import { CardList, RefreshButton } from "./AdminParts";
import { downloadContactFile, useContactInbox, useLiveTeamWork, useMarkContactHandled } from "./api";

const CONTACT_FAILED = "Impossible de charger les messages de contact";

function ContactCard({ item }: { item: ContactItem }) {
  const handled = useMarkContactHandled();
  const [downloading, setDownloading] = useState(false);

  const download = async () => {
    if (!item.file_name) return;
    setDownloading(true);
    try {
      await downloadContactFile(item.id, item.file_name);
    } catch (error) {
      toast.error("Impossible de télécharger la pièce jointe", {
        description: error instanceof Error ? error.message : undefined,
      });
    } finally {
      setDownloading(false);
    }
  };

  // Either way, undone in one click: « Remettre à traiter » on a handled message.
  const mark = (value: boolean) =>
    handled.mutate(
      { id: item.id, handled: value },
      {
        onSuccess: (result) => toast.success(result.message),
        onError: (error) =>
          toast.error(
            value
              ? "Impossible de marquer le message comme traité"
              : "Impossible de remettre le message à traiter",
            { description: error.message },
          ),
      },
    );

  return (
    <Card className="grid gap-3 p-5 sm:p-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="grid min-w-0 gap-0.5">
          <h2 className="text-lg font-semibold text-slate-900">{item.name}</h2>
          <a href={`mailto:${item.email}`} className="break-all text-brand-800 underline underline-offset-2">
            {item.email}
          </a>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {item.treatment_type ? <Badge tone="brand">{treatmentLabel(item.treatment_type)}</Badge> : null}
          {item.handled_at ? (
            <Badge tone="green">
              <CheckCircle2 aria-hidden="true" />
              Traité le <time dateTime={item.handled_at}>{formatDetailDateTime(item.handled_at)}</time>
            </Badge>
          ) : (
            <Badge tone="yellow">À traiter</Badge>
          )}
        </div>
      </div>
      <p className="text-sm text-slate-600">
        Reçu le <time dateTime={item.created_at}>{formatDetailDateTime(item.created_at)}</time>
      </p>
      <p className="whitespace-pre-line wrap-anywhere text-slate-900">{item.message || "(Aucun message)"}</p>
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        {item.file_name ? (
          <Button
            variant="outline"
            size="sm"
            loading={downloading}
            onClick={() => void download()}
            aria-label={`Télécharger la pièce jointe ${item.file_name}`}
          >
            <Download aria-hidden="true" />
            <span className="max-w-56 truncate">{item.file_name}</span>
            {item.file_size !== null ? (
              <span className="text-slate-600">({formatFileSize(item.file_size)})</span>
            ) : null}
          </Button>
        ) : null}
        {item.handled_at ? (
          <Button
            variant="outline"
            size="sm"
            loading={handled.isPending}
            onClick={() => mark(false)}
            aria-label={`Remettre à traiter le message ${ofName(item.name)}`}
          >
            <Undo2 aria-hidden="true" />
            Remettre à traiter
          </Button>
        ) : (
          <Button
            size="sm"
            loading={handled.isPending}
            onClick={() => mark(true)}
            aria-label={`Marquer comme traité le message ${ofName(item.name)}`}
          >
            <CheckCircle2 aria-hidden="true" />
            Marquer comme traité
          </Button>
        )}
      </div>
    </Card>
  );
}

/** /admin/contact: the contact form's messages, newest first, with their attachment. */
export function AdminContactPage() {
  const [page, setPage] = useState(1);
  const inbox = useContactInbox(page);
  useLiveTeamWork();
  return (
    <>
      <PageHeader
        title="Messages de contact"
        description="Les messages envoyés depuis le formulaire de contact, les plus récents d'abord."
        actions={<RefreshButton query={inbox} />}
      />
      <CardList
        query={inbox}
        label="Messages de contact"
        failed={CONTACT_FAILED}
        skeleton={{ count: 3, className: "h-48 w-full rounded-ui" }}
        empty={{
          icon: Inbox,
          title: "Aucun message",
          description: "Les messages du formulaire de contact apparaîtront ici.",
        }}
        page={page}
        onPageChange={setPage}
      >
        {(item) => <ContactCard item={item} />}
      </CardList>
    </>
  );
}
