import type { LucideIcon } from "lucide-react";
import { Plus } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { Button } from "../../components/ui/Button";

/** A button to /patient/upload, where a patient starts a new request: 'Nouvelle demande' unless told. */
export function UploadLink({
  icon: Icon = Plus,
  variant,
  children = "Nouvelle demande",
}: {
  icon?: LucideIcon;
  variant?: "outline";
  children?: ReactNode;
}) {
  return (
    <Button asChild variant={variant}>
      <Link to="/patient/upload">
        <Icon aria-hidden="true" />
        {children}
      </Link>
    </Button>
  );
}
