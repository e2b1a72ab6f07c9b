import { URGENCIES, urgencyFormLabel } from "../../../../shared/domain/requests";
import type { UploadFieldErrors, UploadValues } from "../../../../shared/forms/uploadForm";
import { requestFieldsSchema } from "../../../../shared/schemas/requests";
import { OptionSelect, TreatmentSelect } from "../../../components/OptionSelect";
import { centsToInput } from "../../../components/quote/quoteLines";
import { Card, CardContent, CardHeader, CardTitle } from "../../../components/ui/Card";
import { maxLengthOf } from "../../../components/ui/CharacterCount";
import { FormField, InputField, TextareaField } from "../../../components/ui/FormField";
import { textProps } from "../../../lib/form";
import { EuroInput } from "../EuroInput";

/** The server's limits of the description and the budget (the request schema's). */
const DESCRIPTION_MAX = maxLengthOf(requestFieldsSchema.shape.description.in.unwrap());
const BUDGET_MAX = maxLengthOf(requestFieldsSchema.shape.budget.in.unwrap());

/** One field of the form changed. */
export type SetUploadField = <K extends keyof UploadValues>(field: K, value: UploadValues[K]) => void;

/**
 * 'Votre traitement': type, urgency, description, budget, and the devis' amount (read-only, the
 * lines' total, when the devis is typed line by line).
 */
export function TreatmentCard({
  values,
  set,
  errors,
  sending,
  linesTotal,
}: {
  values: UploadValues;
  set: SetUploadField;
  errors: UploadFieldErrors;
  sending: boolean;
  /** The total of the devis' lines in cents, or null without lines. */
  linesTotal: number | null;
}) {
  const text = textProps<"description" | "budget">(values, set);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Votre traitement</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-5 sm:grid-cols-2">
        <FormField label="Type de traitement" required error={errors.treatment_type}>
          {(control) => (
            <TreatmentSelect
              {...control}
              value={values.treatment_type}
              onValueChange={(value) => set("treatment_type", value)}
              placeholder="Sélectionnez un traitement"
              disabled={sending}
            />
          )}
        </FormField>
        <FormField label="Urgence">
          {(control) => (
            <OptionSelect
              {...control}
              value={values.urgency}
              options={URGENCIES}
              labelOf={urgencyFormLabel}
              onValueChange={(value) => set("urgency", value)}
              disabled={sending}
            />
          )}
        </FormField>
        <TextareaField
          label="Description"
          fieldClassName="sm:col-span-2"
          error={errors.description}
          description="Vos symptômes, ce que votre dentiste vous a proposé, vos questions."
          rows={4}
          counter={{ value: values.description, max: DESCRIPTION_MAX }}
          {...text("description")}
          disabled={sending}
        />
        <InputField
          label="Budget"
          error={errors.budget}
          description="Facultatif, par exemple « 1 500 € maximum »."
          counter={{ value: values.budget, max: BUDGET_MAX }}
          {...text("budget")}
          disabled={sending}
        />
        <FormField
          label="Montant de votre devis actuel (optionnel)"
          error={errors.quote_amount}
          description={
            linesTotal !== null
              ? "Le total des actes de votre devis, détaillés plus bas."
              : "En euros, par exemple 1 250,50. Il sert à vous montrer l'économie proposée par chaque dentiste."
          }
        >
          {(control) => (
            <EuroInput
              {...control}
              className={linesTotal !== null ? "bg-slate-50" : undefined}
              value={linesTotal !== null ? centsToInput(linesTotal) : values.quote_amount}
              onChange={(event) => set("quote_amount", event.target.value)}
              readOnly={linesTotal !== null}
              disabled={sending}
            />
          )}
        </FormField>
      </CardContent>
    </Card>
  );
}
