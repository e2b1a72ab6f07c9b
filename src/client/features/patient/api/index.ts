import { patientKeys } from "../../../lib/queryKeys";

/** The patient area's calls: one function (and hook) per endpoint, grouped by what the patient does. */

export {
  createRequest,
  fileOffsets,
  type NewRequest,
  newSubmissionId,
  progressOfFiles,
  useCreateRequest,
  useVerifiedDentists,
} from "./newRequest";
export { type OfferAccepted, type OfferUnaccepted, useAcceptOffer, useUnacceptOffer } from "./offers";
export { type QuoteSaved, useComparison, useCover, useSaveCover, useSaveQuote } from "./quotes";
export {
  READING_POLL_MS,
  readingPageUrl,
  useChangeDocumentType,
  useDismissReading,
  useReadDocument,
  useReading,
} from "./reading";
export {
  REQUESTS_PAGE_SIZE,
  useAccessLogPage,
  useCancelRequest,
  useDeleteRequest,
  useOpenToAll,
  usePatientDashboard,
  usePatientRequest,
  usePatientRequests,
  useWithdrawConsent,
} from "./requests";
export { useDeleteReview, useDentistReviews, useMyReviews, useSaveReview } from "./reviews";
export { patientKeys };
