import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { ChevronDown, Euro, FileText, Users } from "lucide-react";
import { useId, useState } from "react";
import {
  PLAN_WORDS,
  SUBSCRIPTION_STANDING_LABELS,
  SUBSCRIPTION_STANDINGS,
} from "../../../shared/domain/subscription";
import { formatListDate } from "../../../shared/format/dates";
import { formatEuros } from "../../../shared/format/money";
import { ofName } from "../../../shared/format/names";
import type { AdminSubscriptions } from "../../../shared/schemas/billing";
import { PageHeader } from "../../components/PageHeader";
import { Button } from "../../components/ui/Button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/Card";
import { ListPagination } from "../../components/ui/DataTable";
import { EmptyState } from "../../components/ui/EmptyState";
import { InputField } from "../../components/ui/FormField";
import { LoadError } from "../../components/ui/LoadError";
import { Skeleton } from "../../components/ui/Skeleton";
import { StatCard } from "../../components/ui/StatCard";
import { api } from "../../lib/api";
import { cn } from "../../lib/cn";
import { DentistInvoices, RegisterExportButton } from "./billing";

/*
 * /admin/subscriptions 'Abonnements' (issue 35): the counts by state, the monthly recurring revenue
 * HT, and the dentists' subscriptions, searched by name or e-mail, twenty a page; each dentist's
 * invoices and credit notes open under his line, and the invoice register is exported in CSV for the
 * accountant.
 */

type Item = AdminSubscriptions["items"][number];

/**
 * A line's state: the standing the counts count it under (an ended trial is « Essai terminé »), the
 * plan, then what comes next worded as on the dentist's page — a subscription that renews by itself
 * reads « prochain renouvellement le … » (« passe à l'annuel le … » when its dentist changed his plan,
 * ADR 096; in a kept trial « jusqu'au …, puis annuel »), « jusqu'au … » only for what ends (a cancelled
 * subscription, the trial, the full access of a late payment).
 */
function subscriptionLine(item: Item): string {
  const on = item.changes_at ? formatListDate(item.changes_at) : null;
  const parts = [SUBSCRIPTION_STANDING_LABELS[item.status]];
  if (item.plan) parts.push(PLAN_WORDS[item.plan].short);
  switch (item.phase) {
    case "trial":
    case "trial_ending":
      // Taken during the trial, its plan changed before the first payment (ADR 096's addendum).
      if (on)
        parts.push(
          item.next_plan ? `jusqu'au ${on}, puis ${PLAN_WORDS[item.next_plan].short}` : `jusqu'au ${on}`,
        );
      break;
    case "active":
      // A change of plan asked for (ADR 096) takes the renewal's place.
      if (on)
        parts.push(
          item.next_plan
            ? `passe ${PLAN_WORDS[item.next_plan].toShort} le ${on}`
            : `prochain renouvellement le ${on}`,
        );
      break;
    case "ending":
      parts.push(on ? `résilié, jusqu'au ${on}` : "résilié");
      break;
    case "past_due":
      if (on) parts.push(`accès complet jusqu'au ${on}`);
      break;
    case "limited":
      parts.push("accès limité");
      break;
  }
  return parts.join(" · ");
}

/** 'Factures' under a dentist's line: his invoices, loaded when opened. */
function InvoicesDisclosure({ dentistId, name }: { dentistId: string; name: string }) {
  const [open, setOpen] = useState(false);
  const panel = useId();
  return (
    <div className="mt-2 grid gap-3">
      <Button
        variant="outline"
        size="sm"
        // A long name wraps inside the button instead of pushing the line past a phone's width.
        className="h-auto! min-h-9 max-w-full justify-self-start py-1.5 text-left whitespace-normal!"
        aria-expanded={open}
        aria-controls={panel}
        onClick={() => setOpen((o) => !o)}
      >
        <FileText aria-hidden="true" />
        Factures {ofName(name)}
        <ChevronDown aria-hidden="true" className={cn("transition-transform", open && "rotate-180")} />
      </Button>
      <div id={panel} hidden={!open}>
        {open ? <DentistInvoices dentistId={dentistId} dentistName={name} /> : null}
      </div>
    </div>
  );
}

export function AdminSubscriptionsPage() {
  const [search, setSearch] = useState("");
  const [typed, setTyped] = useState("");
  const [page, setPage] = useState(1);
  const query = useQuery({
    queryKey: ["admin", "subscriptions", search, page],
    queryFn: ({ signal }) =>
      api<AdminSubscriptions>(
        `/api/admin/subscriptions?${new URLSearchParams({ search, page: String(page) }).toString()}`,
        { signal },
      ),
    placeholderData: keepPreviousData,
  });
  const data = query.data;
  return (
    <>
      <PageHeader
        title="Abonnements"
        description="Les abonnements des dentistes et le revenu qu'ils apportent."
      />
      {query.isError ? (
        <LoadError title="Impossible de charger les abonnements" onRetry={() => void query.refetch()} />
      ) : null}
      <section
        aria-label="Chiffres des abonnements"
        className="mb-6 grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-3"
      >
        <StatCard
          icon={Euro}
          label="Revenu mensuel récurrent (HT)"
          value={data ? formatEuros(data.mrr_ht_cents) : "—"}
          loading={query.isPending}
          className="col-span-2 sm:col-span-1"
        />
        {SUBSCRIPTION_STANDINGS.map((status) => (
          <StatCard
            key={status}
            icon={Users}
            label={SUBSCRIPTION_STANDING_LABELS[status]}
            value={data ? String(data.counts[status]) : "—"}
            loading={query.isPending}
          />
        ))}
      </section>
      <form
        aria-label="Rechercher un abonnement"
        className="mb-4 flex flex-wrap items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          setPage(1);
          setSearch(typed.trim());
        }}
      >
        <InputField
          label="Rechercher un dentiste (nom ou e-mail)"
          type="search"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
        />
        <Button type="submit" variant="secondary">
          Rechercher
        </Button>
      </form>
      {query.isPending ? (
        <ul className="grid gap-2" aria-busy="true" aria-label="Chargement des abonnements">
          {[0, 1, 2].map((n) => (
            <li key={n} className="rounded-ui border border-slate-200 bg-white p-3">
              <Skeleton className="h-5 w-48" />
              <Skeleton className="mt-2 h-4 w-64" />
            </li>
          ))}
        </ul>
      ) : data && data.items.length === 0 ? (
        <EmptyState
          icon={Users}
          as="h2"
          title="Aucun abonnement ne correspond."
          description={search ? "Vérifiez le nom ou l'e-mail recherché." : undefined}
        />
      ) : (
        <ul className="grid gap-2">
          {(data?.items ?? []).map((item) => (
            <li key={item.dentist_id} className="min-w-0 rounded-ui border border-slate-200 bg-white p-3">
              <p className="font-semibold">{item.full_name}</p>
              <p className="text-sm text-slate-600 break-all">{item.email}</p>
              <p className="text-sm">{subscriptionLine(item)}</p>
              <InvoicesDisclosure dentistId={item.dentist_id} name={item.full_name} />
            </li>
          ))}
        </ul>
      )}
      <ListPagination className="mt-4" page={page} hasMore={data?.has_more} onPageChange={setPage} />
      <Card className="mt-8">
        <CardHeader>
          <CardTitle as="h2">Registre des factures</CardTitle>
          <CardDescription>
            Les factures et avoirs émis entre deux dates (incluses), pour la comptabilité : un fichier CSV
            lisible par un tableur.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <RegisterExportButton />
        </CardContent>
      </Card>
    </>
  );
}
