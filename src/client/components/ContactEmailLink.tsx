import { useConfig } from "../lib/config";

/** The team's address (CONTACT_EMAIL) as a mailto link, underlined in the brand colour. */
export function ContactEmailLink() {
  const { contact_email } = useConfig();
  return (
    <a href={`mailto:${contact_email}`} className="font-medium text-brand-800 underline underline-offset-2">
      {contact_email}
    </a>
  );
}
