import { uiTexts } from "~/shared/ui/texts";
import { useHydrated } from "~/shared/ui/use-hydrated";
import { SIDE_NAV_ID } from "./side-nav";

/**
 * The header's Menu button of the phone layout (hidden on wider screens by CSS): it folds the side navigation
 * in and out. Before hydration — and always without JavaScript — it is a link to the menu (`#side-nav`).
 */
export function MenuToggle({ open, onToggle }: { open: boolean; onToggle: () => void }) {
  const hydrated = useHydrated();
  if (!hydrated) {
    return (
      <a className="shell__menu-toggle" href={`#${SIDE_NAV_ID}`}>
        {uiTexts.openMenu}
      </a>
    );
  }
  return (
    <button
      type="button"
      className="shell__menu-toggle"
      aria-controls={SIDE_NAV_ID}
      aria-expanded={open}
      onClick={onToggle}
    >
      {open ? uiTexts.closeMenu : uiTexts.openMenu}
    </button>
  );
}
