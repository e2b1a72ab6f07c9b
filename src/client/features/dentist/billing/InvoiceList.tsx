import { FileText } from "lucide-react";
import { useState } from "react";
import { invoiceColumns } from "../../../components/billing/invoiceColumns";
import { DataTable, ListPagination } from "../../../components/ui/DataTable";
import { EmptyState } from "../../../components/ui/EmptyState";
import { LoadError } from "../../../components/ui/LoadError";
import { downloadOwnInvoice, useOwnInvoices } from "./api";

const COLUMNS = invoiceColumns(downloadOwnInvoice);

/** 'Mes factures': the dentist's invoices and credit notes, newest first, each downloadable (PDF Factur-X). */
export function InvoiceList() {
  const [page, setPage] = useState(1);
  const query = useOwnInvoices(page);
  return (
    <div className="grid gap-3">
      <DataTable
        caption="Mes factures et avoirs"
        columns={COLUMNS}
        rows={query.data?.items}
        rowKey={(row) => row.id}
        loading={query.isPending}
        loadingRows={3}
        error={
          query.isError ? (
            <LoadError title="Vos factures n'ont pas pu être chargées." onRetry={() => query.refetch()} />
          ) : undefined
        }
        empty={
          <EmptyState
            icon={FileText}
            as="h3"
            title="Aucune facture pour l'instant"
            description="Chaque paiement de votre abonnement donne une facture, téléchargeable ici."
          />
        }
      />
      <ListPagination page={page} hasMore={query.data?.has_more} onPageChange={setPage} />
    </div>
  );
}
