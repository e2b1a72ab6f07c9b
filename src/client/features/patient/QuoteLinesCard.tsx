import { QuoteLinesEditor } from "../../components/quote/QuoteLinesEditor";
import type { DraftLine, LineErrors } from "../../components/quote/quoteLines";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/Card";
import { QuoteDateField } from "./QuoteDateField";

/**
 * 'Détaillez votre devis (facultatif)' on the upload page (issue 15): the devis line by line, sent
 * with the request as `quote_lines`. It can also be done later from the request page. Once a line is
 * added, 'Date du devis' (`date`, sent as `quote_date`) chooses the tariffs (`day`) of the lines.
 */
export function QuoteLinesCard({
  value,
  onChange,
  errors,
  showIncomplete,
  disabled,
  date,
  day,
}: {
  date: { value: string; onChange: (value: string) => void; error?: string };
  day: string;
  value: DraftLine[];
  onChange: (lines: DraftLine[]) => void;
  errors: LineErrors;
  showIncomplete: boolean;
  disabled?: boolean;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Détaillez votre devis (facultatif)</CardTitle>
        <CardDescription>
          Recopiez les actes de votre devis, dent par dent, pour comparer votre reste à charge avec chaque
          proposition. Vous pourrez aussi le faire plus tard, depuis la page de votre demande.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {value.length > 0 ? <QuoteDateField {...date} disabled={disabled} /> : null}
        <QuoteLinesEditor
          mode="patient"
          value={value}
          onChange={onChange}
          day={day}
          errors={errors}
          showIncomplete={showIncomplete}
          legend="Actes de votre devis"
          description="Pour chaque acte : la dent, l'acte (son code commence par 4 lettres, par exemple HBLD634) et les honoraires."
          disabled={disabled}
        />
      </CardContent>
    </Card>
  );
}
