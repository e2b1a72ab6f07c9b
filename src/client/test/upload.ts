import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { vi } from "vitest";
import { FakeXhr, fakeFile } from "./fakes";
import { json, makeProfile, renderApp, stubApi } from "./renderApp";

/**
 * The upload page ready to send: a patient, no verified dentist to choose, uploads through FakeXhr
 * (`FakeXhr.last` is the request sent), a PDF devis chosen, "Couronne" and the consent ticked.
 */
export async function openUploadReadyToSend() {
  stubApi(makeProfile(), { "GET /api/dentists/verified": () => json(200, { items: [] }) });
  FakeXhr.last = null;
  vi.stubGlobal("XMLHttpRequest", FakeXhr);
  const user = userEvent.setup();
  renderApp("/patient/upload");
  await user.upload(await screen.findByLabelText("Choisir des fichiers"), [
    fakeFile("devis.pdf", "application/pdf", 4000),
  ]);
  await user.click(screen.getByRole("combobox", { name: /Type de traitement/ }));
  await user.click(await screen.findByRole("option", { name: "Couronne" }));
  await user.click(screen.getByRole("checkbox", { name: /J'accepte que mes documents/ }));
  return user;
}
