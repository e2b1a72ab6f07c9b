import { GEO_MESSAGES } from "../../shared/domain/geo";
import { ERROR_CODES } from "../../shared/schemas/common";
import { AppError } from "../errors";
import { isKnownPostalCode } from "./communes";

/**
 * A postal code given by a person (profile, dentist sign-up) must name a French commune of the dataset
 * (ADR 019): otherwise a 400 naming the field, in French. Empty or absent: nothing to check.
 */
export function assertKnownPostalCode(code: string | null | undefined, field: string): void {
  if (!code) return;
  if (!isKnownPostalCode(code))
    throw new AppError(400, ERROR_CODES.validation, GEO_MESSAGES.postalCodeUnknown, {
      [field]: GEO_MESSAGES.postalCodeUnknown,
    });
}
