import type { SupportMessage } from "../../shared/schemas/support";

/** A message of a support thread, from the person unless `from_team`; tests override what they check. */
export function supportMessage(overrides: Partial<SupportMessage>): SupportMessage {
  return {
    id: "m1",
    patient_id: "00000000-0000-4000-8000-000000000001",
    from_team: false,
    author_name: null,
    body: "Comment joindre mon devis ?",
    image: null,
    request: null,
    read_at: null,
    created_at: "2026-03-12T08:00:00.000Z",
    ...overrides,
  };
}
