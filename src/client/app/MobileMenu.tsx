import { Menu } from "lucide-react";
import { lazy, Suspense, useState } from "react";

const loadMobileMenu = () => import("./PublicMobileMenu");
const PublicMobileMenu = lazy(loadMobileMenu);

// Button's ghost icon look, written out: this island loads on every public page, without the
// class-merging code that Button's module brings.
const TRIGGER_CLASS =
  "relative inline-flex shrink-0 items-center justify-center gap-2 whitespace-nowrap rounded-ui font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 [&_svg]:shrink-0 text-slate-700 hover:bg-slate-100 hover:text-slate-900 size-10 [&_svg]:size-5";

/**
 * The hamburger (an island on pre-rendered pages, ADR 027): a plain button until first used, then
 * the lazily loaded Sheet menu. `pathname` marks the current page's link.
 */
export function MobileMenu({ pathname }: { pathname: string }) {
  const [wanted, setWanted] = useState(false);
  const placeholder = (
    <button
      type="button"
      className={TRIGGER_CLASS}
      aria-label="Ouvrir le menu"
      aria-haspopup="dialog"
      onClick={() => setWanted(true)}
      onPointerEnter={loadMobileMenu}
      onFocus={loadMobileMenu}
    >
      <Menu aria-hidden="true" />
    </button>
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
