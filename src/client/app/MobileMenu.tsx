import { Menu } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { Button } from "../components/ui/Button";

const loadMobileMenu = () => import("./PublicMobileMenu");
const PublicMobileMenu = lazy(loadMobileMenu);

/**
 * The hamburger (an island on pre-rendered pages, ADR 027): a plain button until first used, then
 * the lazily loaded Sheet menu. `pathname` marks the current page's link.
 */
export function MobileMenu({ pathname }: { pathname: string }) {
  const [wanted, setWanted] = useState(false);
  const placeholder = (
    <Button
      variant="ghost"
      size="icon"
      aria-label="Ouvrir le menu"
      aria-haspopup="dialog"
      onClick={() => setWanted(true)}
      onPointerEnter={loadMobileMenu}
      onFocus={loadMobileMenu}
    >
      <Menu aria-hidden="true" />
    </Button>
  );
  return (
    <div className="md:hidden">
      {wanted ? (
        <Suspense fallback={placeholder}>
          <PublicMobileMenu initiallyOpen pathname={pathname} />
        </Suspense>
      ) : (
        placeholder
      )}
    </div>
  );
}
