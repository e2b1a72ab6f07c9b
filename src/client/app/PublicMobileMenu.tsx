import { Upload } from "lucide-react";
import { useState } from "react";
import { UPLOAD_INTENT_PATH } from "../../shared/uploadIntent";
import { Button } from "../components/ui/Button";
import { MenuSheet } from "../components/ui/Sheet";
import { cn } from "../lib/cn";
import { AccountLink, PUBLIC_NAV_LINKS } from "./publicNav";

/** Whether a menu link names the current page (`end`: the path itself, not a sub-page). */
function isActive(pathname: string, to: string, end: boolean): boolean {
  if (pathname === to) return true;
  return !end && pathname.startsWith(`${to}/`);
}

/**
 * The public mobile menu (a Sheet under 768 px). Loaded on demand by MobileMenu, so Radix
 * Dialog stays out of the landing page's initial JS; it opens as soon as it is loaded. Its links
 * are plain links (it runs in an island, without the router: ADR 027).
 */
export default function PublicMobileMenu({
  initiallyOpen = false,
  pathname,
}: {
  initiallyOpen?: boolean;
  pathname: string;
}) {
  const [open, setOpen] = useState(initiallyOpen);
  const close = () => setOpen(false);
  return (
    <MenuSheet open={open} onOpenChange={setOpen} side="right" title="Menu" description="Navigation du site">
      <nav aria-label="Navigation mobile" className="grid gap-1">
        {PUBLIC_NAV_LINKS.map((link) => {
          const active = isActive(pathname, link.to, link.end);
          return (
            <a
              key={link.to}
              href={link.to}
              onClick={close}
              aria-current={active ? "page" : undefined}
              className={cn(
                "rounded-md px-3 py-2.5 text-base font-medium hover:bg-slate-100",
                active ? "bg-brand-50 text-brand-900" : "text-slate-800",
              )}
            >
              {link.label}
            </a>
          );
        })}
        <AccountLink
          onClick={close}
          className="rounded-md px-3 py-2.5 text-base font-medium text-slate-800 hover:bg-slate-100"
        />
      </nav>
      <Button asChild variant="accent" size="lg" className="mt-2">
        <a href={UPLOAD_INTENT_PATH} onClick={close}>
          <Upload aria-hidden="true" />
          Déposer votre devis
        </a>
      </Button>
    </MenuSheet>
  );
}
