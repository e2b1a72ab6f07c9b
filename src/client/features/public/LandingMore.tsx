import { FileUp, Mail } from "lucide-react";
import { Link } from "react-router";
import { UPLOAD_INTENT_PATH } from "../../../shared/uploadIntent";
import { Island } from "../../components/Island";
import { TESTIMONIALS_SECTION } from "../../content/landing";
import { useConfig } from "../../lib/config";
import { ContactForm } from "./ContactForm";
import { FaqAccordion } from "./faqItems";
import { SectionTitle } from "./SectionTitle";
import { LandingTestimonials } from "./Testimonials";

/** The landing page below the fold: testimonials, FAQ, and the contact section that ends it. */
export default function LandingMore() {
  const { contact_email } = useConfig();
  return (
    <>
      <section aria-labelledby="testimonials-title" className="below-fold bg-brand-50/60">
        <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6">
          <SectionTitle id="testimonials-title">{TESTIMONIALS_SECTION.title}</SectionTitle>
          <p className="mt-2 mb-8 max-w-2xl text-slate-700">{TESTIMONIALS_SECTION.intro}</p>
          <Island name="testimonials">
            <LandingTestimonials />
          </Island>
          {TESTIMONIALS_SECTION.illustrative ? (
            <p className="mt-4 text-sm text-slate-600">{TESTIMONIALS_SECTION.illustrativeNote}</p>
          ) : null}
        </div>
      </section>

      <section aria-labelledby="faq-title" className="below-fold mx-auto max-w-3xl px-4 py-14 sm:px-6">
        <SectionTitle id="faq-title">Questions fréquentes</SectionTitle>
        <div className="mt-6">
          <FaqAccordion />
        </div>
        <p className="mt-6 text-slate-700">
          D'autres questions ?{" "}
          <Link to="/faq" className="font-medium text-brand-800 underline underline-offset-2">
            Toutes les questions fréquentes
          </Link>
        </p>
      </section>

      <section
        id="contact"
        aria-labelledby="contact-title"
        className="below-fold border-t border-slate-200 bg-slate-50"
      >
        <div className="mx-auto grid max-w-6xl gap-10 px-4 py-14 sm:px-6 lg:grid-cols-[1fr_1.6fr]">
          <div>
            <SectionTitle id="contact-title">Une question ? Écrivez-nous</SectionTitle>
            <p className="mt-3 text-slate-700">
              Notre équipe répond en français, par e-mail. Vous pouvez joindre un document si cela aide à
              comprendre votre question.
            </p>
            <p className="mt-4 inline-flex items-center gap-2 text-slate-700">
              <Mail className="size-4 text-brand-700" aria-hidden="true" />
              <a
                href={`mailto:${contact_email}`}
                className="font-medium text-brand-800 underline underline-offset-2"
              >
                {contact_email}
              </a>
            </p>
            <div className="mt-8 rounded-ui border border-brand-200 bg-white p-5">
              <h3 className="font-semibold text-slate-900">Vous avez déjà un devis ?</h3>
              <p className="mt-1 text-slate-700">
                Déposez-le directement dans votre espace patient : les dentistes vérifiés pourront vous
                répondre.
              </p>
              <Link
                to={UPLOAD_INTENT_PATH}
                className="mt-3 inline-flex items-center gap-2 font-medium text-brand-800 underline underline-offset-2"
              >
                <FileUp className="size-4" aria-hidden="true" />
                Déposer mon devis
              </Link>
            </div>
          </div>
          <div className="rounded-ui border border-slate-200 bg-white p-5 shadow-sm sm:p-8">
            <Island name="contact-form">
              <ContactForm />
            </Island>
          </div>
        </div>
      </section>
    </>
  );
}
