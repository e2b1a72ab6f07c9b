import type { Migration } from "kysely/migration";
import * as m001 from "./001_accounts";
import * as m002 from "./002_contact";
import * as m003 from "./003_requests";
import * as m004 from "./004_dentist_replies";
import * as m005 from "./005_dentist_verification";
import * as m006 from "./006_offers";
import * as m007 from "./007_patient_birth_date";
import * as m008 from "./008_request_tallies";
import * as m009 from "./009_messaging";
import * as m010 from "./010_admin";
import * as m011 from "./011_appointments";
import * as m012 from "./012_login_attempts";
import * as m013 from "./013_open_requests_and_admins";
import * as m016 from "./016_retention";
import * as m017 from "./017_access_history";
import * as m018 from "./018_erasure";
import * as m019 from "./019_consent";
import * as m020 from "./020_support_access";
import * as m021 from "./021_structured_quotes";
import * as m022 from "./022_accepted_requests";
import * as m023 from "./023_terms_consent";
import * as m024 from "./024_support_for_everyone";
import * as m025 from "./025_postal_codes";
import * as m026 from "./026_quote_readings";
import * as m027 from "./027_shared_limits_and_jobs";
import * as m028 from "./028_table_changes";
import * as m029 from "./029_one_appointment_per_dentist_time";
import * as m030 from "./030_own_password_and_session_changes";
import * as m031 from "./031_dated_tariffs";
import * as m032 from "./032_reading_choices_and_classification";
import * as m033 from "./033_subscriptions";
import * as m034 from "./034_invoices";
import * as m035 from "./035_reviews";
import * as m037 from "./037_changes_by_person";
import * as m038 from "./038_conversation_counters";
import * as m039 from "./039_list_counters";
import * as m040 from "./040_counters_under_lock";
import * as m041 from "./041_dentist_tallies";
import * as m042 from "./042_response_seconds";
import * as m043 from "./043_offers_in_list_order";
import * as m044 from "./044_closed_review_reports";
import * as m045 from "./045_checkout_leases";
import * as m046 from "./046_foreign_key_indexes";
import * as m047 from "./047_named_request_mail";
import * as m048 from "./048_offer_compared_quote";
import * as m049 from "./049_profiles_rpps_index";
import * as m050 from "./050_recipient_away_mail";
import * as m051 from "./051_email_preferences";
import * as m052 from "./052_accent_insensitive_names";
import * as m053 from "./053_new_requests_email";
import * as m054 from "./054_offer_expiry_reminder";
import * as m055 from "./055_requests_set_aside";
import * as m056 from "./056_account_suspension";
import * as m057 from "./057_suspended_accounts_index";
import * as m058 from "./058_appointment_dentist_away_mail";
import * as m059 from "./059_patient_postal_code_index";
import * as m060 from "./060_suspension_end";
import * as m061 from "./061_plan_change";
import * as m062 from "./062_two_factor";
import * as m063 from "./063_two_factor_used_codes";
import * as m064 from "./064_remembered_devices";
import * as m065 from "./065_received_tallies";
import * as m066 from "./066_request_submission";

/** Every migration, in order. Same list on PGlite and PostgreSQL. */
export const migrations: Record<string, Migration> = {
  "001_accounts": m001,
  "002_contact": m002,
  "003_requests": m003,
  "004_dentist_replies": m004,
  "005_dentist_verification": m005,
  "006_offers": m006,
  "007_patient_birth_date": m007,
  "008_request_tallies": m008,
  "009_messaging": m009,
  "010_admin": m010,
  "011_appointments": m011,
  "012_login_attempts": m012,
  "013_open_requests_and_admins": m013,
  "016_retention": m016,
  "017_access_history": m017,
  "018_erasure": m018,
  "019_consent": m019,
  "020_support_access": m020,
  "021_structured_quotes": m021,
  "022_accepted_requests": m022,
  "023_terms_consent": m023,
  "024_support_for_everyone": m024,
  "025_postal_codes": m025,
  "026_quote_readings": m026,
  "027_shared_limits_and_jobs": m027,
  "028_table_changes": m028,
  "029_one_appointment_per_dentist_time": m029,
  "030_own_password_and_session_changes": m030,
  "031_dated_tariffs": m031,
  "032_reading_choices_and_classification": m032,
  "033_subscriptions": m033,
  "034_invoices": m034,
  "035_reviews": m035,
  "037_changes_by_person": m037,
  "038_conversation_counters": m038,
  "039_list_counters": m039,
  "040_counters_under_lock": m040,
  "041_dentist_tallies": m041,
  "042_response_seconds": m042,
  "043_offers_in_list_order": m043,
  "044_closed_review_reports": m044,
  "045_checkout_leases": m045,
  "046_foreign_key_indexes": m046,
  "047_named_request_mail": m047,
  "048_offer_compared_quote": m048,
  "049_profiles_rpps_index": m049,
  "050_recipient_away_mail": m050,
  "051_email_preferences": m051,
  "052_accent_insensitive_names": m052,
  "053_new_requests_email": m053,
  "054_offer_expiry_reminder": m054,
  "055_requests_set_aside": m055,
  "056_account_suspension": m056,
  "057_suspended_accounts_index": m057,
  "058_appointment_dentist_away_mail": m058,
  "059_patient_postal_code_index": m059,
  "060_suspension_end": m060,
  "061_plan_change": m061,
  "062_two_factor": m062,
  "063_two_factor_used_codes": m063,
  "064_remembered_devices": m064,
  "065_received_tallies": m065,
  "066_request_submission": m066,
};
