/**
 * The anchor of an appointment's card on the appointments page: « Confirmer » on the dentist's
 * dashboard links to it (the page scrolls to it once loaded: RootLayout's scrollToHash) and the card
 * is outlined. Its own module: the dashboard imports it without the page.
 */
export const appointmentAnchor = (id: string) => `rdv-${id}`;
