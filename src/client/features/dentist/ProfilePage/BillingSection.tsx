import { Link } from "react-router";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../components/ui/Card";
import { useConfig } from "../../../lib/config";
import { BillingProfileForm, InvoiceList } from "../billing";

/**
 * 'Facturation' on the dentist's profile (issue 35): the billing profile and the invoices, also on the
 * 'Abonnement' page, which this section links to (plan, payment method, cancellation).
 */
export function BillingSection() {
  const { brand_name: brand } = useConfig();
  return (
    <section aria-labelledby="billing-title" className="mt-8 grid gap-6">
      <h2 id="billing-title" className="text-xl font-semibold text-slate-900">
        Facturation
      </h2>
      <p className="text-slate-700">
        Votre formule, votre moyen de paiement et la résiliation sont sur la page{" "}
        <Link to="/dentist/subscription" className="font-medium text-brand-800 underline underline-offset-2">
          Abonnement
        </Link>
        .
      </p>
      {/* One above the other: the invoices' table (number, date, period, HT, TVA, TTC, download) needs
          the page's width; beside the form it hid its last columns in a scroll at 1024–1440 px. */}
      <div className="grid gap-6">
        <Card>
          <CardHeader>
            <CardTitle as="h3">Profil de facturation</CardTitle>
            <CardDescription>
              Le cabinet auquel {brand} adresse les factures de votre abonnement.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <BillingProfileForm />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle as="h3">Mes factures</CardTitle>
            <CardDescription>Factures et avoirs au format Factur-X (PDF), conservés 10 ans.</CardDescription>
          </CardHeader>
          <CardContent>
            <InvoiceList />
          </CardContent>
        </Card>
      </div>
    </section>
  );
}
