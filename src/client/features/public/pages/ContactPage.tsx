import { Link } from "react-router";
import { Island } from "../../../components/Island";
import { useConfig } from "../../../lib/config";
import { ContactForm } from "../ContactForm";
import { ContentPage, linkClass } from "./ContentPage";

export function ContactPage() {
  const { brand_name, contact_email } = useConfig();
  return (
    <ContentPage
      title="Contact"
      description={`Contactez l'équipe ${brand_name} : une question sur votre devis, le fonctionnement du service ou votre compte.`}
      intro="Une question sur votre devis, sur le fonctionnement du service ou sur votre compte ? Écrivez-nous : notre équipe répond par e-mail, en français."
    >
      <div className="rounded-ui border border-slate-200 bg-white p-5 shadow-sm sm:p-8">
        <Island name="contact-form">
          <ContactForm />
        </Island>
      </div>
      <p>
        Vous préférez l'e-mail ? Écrivez à{" "}
        <a href={`mailto:${contact_email}`} className={linkClass}>
          {contact_email}
        </a>
        . Vous voulez faire étudier un devis ? Le plus simple est de{" "}
        <Link to="/patient/upload" className={linkClass}>
          le déposer dans votre espace patient
        </Link>
        .
      </p>
    </ContentPage>
  );
}
