/** A backup or a restore refused or failed, its message in French for the operator (ADR 047). */
export class BackupError extends Error {
  override name = "BackupError";
}
