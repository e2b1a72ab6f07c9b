import { json, makeProfile, renderApp, stubApi } from "./renderApp";

/** A patient invited to review her appointment a-1 with Dr Ada Lovelace, on its review form. */
export function openReviewForm() {
  const fetchMock = stubApi(makeProfile(), {
    "GET /api/patient/reviews": () =>
      json(200, {
        reviews: [],
        invitations: [
          {
            appointment_id: "a-1",
            request_id: "r-1",
            starts_at: "2026-11-20T09:00:00.000Z",
            dentist: { id: "d-1", full_name: "Ada Lovelace" },
          },
        ],
      }),
  });
  renderApp("/patient/reviews/new/a-1");
  return fetchMock;
}
