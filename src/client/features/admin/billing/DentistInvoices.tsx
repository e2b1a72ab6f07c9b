import { FileText } from "lucide-react";
import { useState } from "react";
import { ofName } from "../../../../shared/format/names";
import { invoiceColumns } from "../../../components/billing/invoiceColumns";
import { DataTable, ListPagination } from "../../../components/ui/DataTable";
import { EmptyState } from "../../../components/ui/EmptyState";
import { LoadError } from "../../../components/ui/LoadError";
import { downloadInvoice, useDentistInvoices } from "./api";

const COLUMNS = invoiceColumns(downloadInvoice);

/** A dentist's invoices and credit notes as the team sees them (admin 'Abonnements'), each downloadable. */
export function DentistInvoices({ dentistId, dentistName }: { dentistId: string; dentistName?: string }) {
  const [page, setPage] = useState(1);
  const query = useDentistInvoices(dentistId, page);
  return (
    <div className="grid gap-3">
      <DataTable
        caption={dentistName ? `Factures et avoirs ${ofName(dentistName)}` : "Factures et avoirs du dentiste"}
        columns={COLUMNS}
        rows={query.data?.items}
        rowKey={(row) => row.id}
        loading={query.isPending}
        loadingRows={3}
        error={
          query.isError ? (
            <LoadError title="Les factures n'ont pas pu être chargées." onRetry={() => query.refetch()} />
          ) : undefined
        }
        empty={<EmptyState icon={FileText} as="h3" title="Aucune facture émise pour ce dentiste" />}
      />
      <ListPagination page={page} hasMore={query.data?.has_more} onPageChange={setPage} />
    </div>
  );
}
