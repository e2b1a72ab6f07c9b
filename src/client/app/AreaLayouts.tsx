import { AppShell } from "./AppShell";
import { RequireArea } from "./RequireArea";

/** Route layouts of the three protected areas (lazy-loaded with the shell). */
export function PatientArea() {
  return (
    <RequireArea area="patient">
      <AppShell area="patient" />
    </RequireArea>
  );
}

export function DentistArea() {
  return (
    <RequireArea area="dentist">
      <AppShell area="dentist" />
    </RequireArea>
  );
}

export function AdminArea() {
  return (
    <RequireArea area="admin">
      <AppShell area="admin" />
    </RequireArea>
  );
}
