import { Download } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { formatVatRate, INVOICE_KIND_LABELS } from "../../../shared/domain/invoices";
import { formatEuros } from "../../../shared/format/money";
import type { InvoiceDto } from "../../../shared/schemas/invoices";
import { Button } from "../ui/Button";
import type { Column } from "../ui/DataTable";

/*
 * The columns of an invoice list (issue 35), shared by the dentist's list and the team's view of a
 * dentist's invoices: each feature gives its own download.
 */

const DAY = new Intl.DateTimeFormat("fr-FR", {
  timeZone: "Europe/Paris",
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
});
const frenchDay = (day: string) => day.split("-").reverse().join("/");

/** 'Télécharger' for one invoice: a failure is told in a toast, the button waits meanwhile. */
function DownloadButton({
  invoice,
  download,
}: {
  invoice: InvoiceDto;
  download: (id: string) => Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  const label = `Télécharger ${invoice.kind === "invoice" ? "la facture" : "l'avoir"} ${invoice.number}`;
  return (
    <Button
      variant="outline"
      size="sm"
      loading={busy}
      aria-label={label}
      onClick={async () => {
        setBusy(true);
        try {
          await download(invoice.id);
        } catch (error) {
          toast.error("Le téléchargement a échoué.", {
            description: error instanceof Error ? error.message : undefined,
          });
        } finally {
          setBusy(false);
        }
      }}
    >
      <Download aria-hidden="true" />
      PDF
    </Button>
  );
}

export function invoiceColumns(download: (id: string) => Promise<void>): Column<InvoiceDto>[] {
  return [
    {
      header: "Numéro",
      cell: (i) => (
        <span className="font-medium text-slate-900">
          {INVOICE_KIND_LABELS[i.kind]} {i.number}
          {i.refers_to_number ? (
            <span className="block text-xs text-slate-600">sur {i.refers_to_number}</span>
          ) : null}
        </span>
      ),
    },
    { header: "Date", cell: (i) => DAY.format(new Date(i.issued_at)) },
    { header: "Période", cell: (i) => `${frenchDay(i.period_start)} – ${frenchDay(i.period_end)}` },
    {
      header: "Montant HT",
      cell: (i) => formatEuros(i.amount_ht_cents),
      className: "text-right tabular-nums",
    },
    {
      header: "TVA",
      cell: (i) => `${formatEuros(i.vat_cents)} (${formatVatRate(i.vat_rate_bp)})`,
      className: "text-right tabular-nums",
    },
    {
      header: "Montant TTC",
      cell: (i) => <span className="font-semibold">{formatEuros(i.amount_ttc_cents)}</span>,
      className: "text-right tabular-nums",
    },
    {
      header: "Télécharger",
      cell: (i) => <DownloadButton invoice={i} download={download} />,
      hideLabelInCard: true,
    },
  ];
}
