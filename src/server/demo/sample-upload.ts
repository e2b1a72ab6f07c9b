import { Readable } from "node:stream";
import { type StoredFile, storeUpload } from "../http/uploads";
import { requestForm } from "../modules/new-request/new-request.service";
import { tinyPdf, tinyPng } from "../sample-files";
import type { Storage } from "../storage/storage";

/**
 * A small real document of the demo patient, stored the way an upload of the request form is: its
 * type sniffed from the content, under a random key of hers, through the app's storage (encrypted
 * at rest like every upload), with the form's rules.
 */
export async function storeSampleDocument(
  storage: Storage,
  patientId: string,
  doc: { name: string; kind: "pdf" | "png" },
  /** The document's own bytes (a devis printed for the demo); else a one-line PDF or a small PNG. */
  bytes?: Buffer,
): Promise<StoredFile> {
  const rules = requestForm(patientId).files;
  if (!rules) throw new Error("le formulaire de demande n'accepte plus de fichiers");
  const content =
    bytes ?? (doc.kind === "pdf" ? tinyPdf(`Sourio - ${doc.name}`) : tinyPng(64, 48, [203, 213, 225]));
  // A part read whole, as @fastify/multipart gives it when it is within the size limit.
  const file = Object.assign(Readable.from([content]), { truncated: false });
  return storeUpload({ filename: doc.name, file }, storage, {
    accepted: rules.accepted,
    keyPrefix: rules.keyPrefix,
    messages: { tooLarge: rules.tooLarge(doc.name), badContent: rules.badContent(doc.name) },
    field: rules.field,
  });
}
