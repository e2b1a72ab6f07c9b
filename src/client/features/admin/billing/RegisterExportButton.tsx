import { FileSpreadsheet } from "lucide-react";
import { type FormEvent, useState } from "react";
import { toast } from "sonner";
import { Button } from "../../../components/ui/Button";
import { InputField } from "../../../components/ui/FormField";
import { isApiError } from "../../../lib/api";
import { downloadRegister } from "./api";

/**
 * 'Exporter le registre (CSV)': the invoices and credit notes issued between two days (both
 * optional, both included) for the accountant: number, date, buyer, SIREN, HT, TVA, TTC, kind, and
 * the invoice a credit note corrects.
 */
export function RegisterExportButton() {
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    try {
      await downloadRegister(from, to);
      setErrors({});
    } catch (error) {
      if (isApiError(error) && Object.keys(error.fields).length > 0) setErrors(error.fields);
      else
        toast.error("L'export du registre a échoué.", {
          description: error instanceof Error ? error.message : undefined,
        });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label="Registre des factures"
      // Aligned at the top: an error under one date must not move the other field (the button sits
      // level with the inputs, below their labels: text-sm's 1.25rem and the field's gap).
      className="grid gap-3 sm:grid-cols-3 sm:items-start"
    >
      <InputField
        label="Du"
        type="date"
        value={from}
        onChange={(e) => setFrom(e.target.value)}
        error={errors.from}
      />
      <InputField
        label="Au"
        type="date"
        value={to}
        onChange={(e) => setTo(e.target.value)}
        error={errors.to}
      />
      <Button type="submit" variant="outline" loading={busy} className="sm:mt-6.5">
        <FileSpreadsheet aria-hidden="true" />
        Exporter le registre (CSV)
      </Button>
    </form>
  );
}
