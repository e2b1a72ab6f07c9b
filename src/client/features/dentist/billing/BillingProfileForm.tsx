import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useRef } from "react";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import { type BillingProfileValues, billingProfileSchema } from "../../../../shared/schemas/invoices";
import { Button } from "../../../components/ui/Button";
import { InputField } from "../../../components/ui/FormField";
import { LoadError } from "../../../components/ui/LoadError";
import { Skeleton } from "../../../components/ui/Skeleton";
import { fieldProps, showFieldErrors } from "../../../lib/form";
import { useSession } from "../../../lib/session";
import { useBillingProfile, useSaveBillingProfile } from "./api";

const FIELDS = ["practice_name", "address", "postal_code", "city", "siren"] as const;
const EMPTY: BillingProfileValues = { practice_name: "", address: "", postal_code: "", city: "", siren: "" };
const SAVE_FAILED = "Le profil de facturation n'a pas été enregistré.";

/**
 * 'Profil de facturation': the practice's name, address and SIREN that Sourio prints as the buyer on
 * the dentist's invoices (issue 35). Checked like the server checks it (SIREN: 9 digits, Luhn key);
 * the server's French errors are shown beside their fields. None saved yet: the invoices carry his
 * name and his practice's address without a SIREN (ADR 045), which the form says, and it starts from
 * that address.
 */
export function BillingProfileForm() {
  const query = useBillingProfile();
  const save = useSaveBillingProfile();
  const form = useForm<BillingProfileValues>({
    resolver: zodResolver(billingProfileSchema),
    defaultValues: EMPTY,
  });
  const field = fieldProps(form);
  const loaded = query.data?.profile;
  const me = useSession().profile;
  const address = me?.practice_address ?? "";
  const postalCode = me?.practice_postcode ?? "";
  const city = me?.city ?? "";
  const none = loaded === null;
  // None saved: the form starts from the practice, once (not again over what the dentist types).
  const prefilled = useRef(false);
  useEffect(() => {
    if (loaded) form.reset(loaded);
    else if (loaded === null && !prefilled.current) {
      prefilled.current = true;
      form.reset({ ...EMPTY, address, postal_code: postalCode, city });
    }
  }, [loaded, form, address, postalCode, city]);

  if (query.isPending) return <Skeleton className="h-64 w-full" />;
  if (query.isError)
    return (
      <LoadError title="Le profil de facturation n'a pas pu être chargé." onRetry={() => query.refetch()} />
    );

  const onSubmit = form.handleSubmit((values) => {
    save.mutate(values, {
      onSuccess: (result) => toast.success(result.message),
      onError: (error) => {
        if (!showFieldErrors(form, error, FIELDS))
          toast.error(SAVE_FAILED, { description: error instanceof Error ? error.message : undefined });
      },
    });
  });

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label="Profil de facturation"
      className="grid gap-4 sm:grid-cols-2"
    >
      <p className="text-sm text-slate-600 sm:col-span-2">
        Ces informations figurent sur les factures de votre abonnement émises ensuite. Les factures déjà
        émises ne changent pas.
      </p>
      {none ? (
        <p className="text-sm text-slate-700 sm:col-span-2">
          Tant que ce profil n'est pas enregistré, vos factures portent votre nom et l'adresse de votre
          cabinet, sans SIREN. Nous l'avons reprise ci-dessous : ajoutez le nom du cabinet et son SIREN.
        </p>
      ) : null}
      <InputField
        label="Nom du cabinet"
        required
        autoComplete="organization"
        maxLength={120}
        fieldClassName="sm:col-span-2"
        {...field("practice_name")}
      />
      <InputField
        label="Adresse"
        required
        autoComplete="street-address"
        maxLength={200}
        fieldClassName="sm:col-span-2"
        {...field("address")}
      />
      <InputField
        label="Code postal"
        required
        autoComplete="postal-code"
        inputMode="numeric"
        maxLength={5}
        {...field("postal_code")}
      />
      <InputField label="Ville" required autoComplete="address-level2" maxLength={100} {...field("city")} />
      <InputField
        label="SIREN"
        required
        inputMode="numeric"
        maxLength={20}
        description="9 chiffres, sur votre avis de situation INSEE ou l'annuaire des entreprises"
        fieldClassName="sm:col-span-2"
        {...field("siren")}
      />
      <div className="sm:col-span-2">
        <Button type="submit" loading={save.isPending} className="w-full sm:w-auto">
          Enregistrer le profil de facturation
        </Button>
      </div>
    </form>
  );
}
